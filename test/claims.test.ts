/**
 * Claims: parsing, the tolerance a printed figure stands for, and exact matching
 * at the bounds (src/formats/claims.ts, pure).
 */
import { describe, expect, it } from "vitest";
import {
  compareDistance,
  matchesClaim,
  meanOfRatios,
  offsetFromClaim,
  parseClaim,
  parseClaimsText,
  ratioOf,
  toNumber,
  type Fraction,
} from "../src/formats/claims.js";
import { UsageError } from "../src/errors.js";

const frac = (num: number, den: number): Fraction => ratioOf(num, den) as Fraction;
const matches = (claim: string, s: number, c: number) => matchesClaim(frac(s, c), parseClaim(claim));

describe("parseClaim", () => {
  it("reads a percent: value and half a unit of the last digit either side", () => {
    const c = parseClaim("87.5%");
    expect(c.form).toBe("percent");
    expect(c.decimals).toBe(1);
    expect(toNumber(c.value)).toBe(0.875);
    // 87.5% +- 0.05% -> [0.8745, 0.8755]
    expect([toNumber(c.lo), toNumber(c.hi)]).toEqual([0.8745, 0.8755]);
  });

  it("reads a decimal fraction", () => {
    const c = parseClaim("0.3696");
    expect(c.form).toBe("decimal");
    // 0.3696 +- 0.00005
    expect([toNumber(c.lo), toNumber(c.hi)]).toEqual([0.36955, 0.36965]);
    // no leading zero is the same figure
    expect(toNumber(parseClaim(".5").value)).toBe(0.5);
  });

  it("reads a whole percent with a wide tolerance", () => {
    const c = parseClaim("82%");
    // 82% +- 0.5% -> [0.815, 0.825]
    expect([toNumber(c.lo), toNumber(c.hi)]).toEqual([0.815, 0.825]);
  });

  it("reads a ratio as its exact value: 70/80 is 7/8 and so is 35/40", () => {
    const c = parseClaim("70/80");
    expect(c.form).toBe("ratio");
    expect(c.value).toEqual({ num: 7n, den: 8n });
    expect(c.lo).toEqual(c.hi);
    expect(matches("70/80", 35, 40)).toBe(true);
    // 71/80 = 0.8875 is not 7/8
    expect(matches("70/80", 71, 80)).toBe(false);
  });

  it("keeps the bounds of 0% and 100% within [0, 1]", () => {
    // 0% - 0.5% would be negative, 100% + 0.5% above 1; rates are neither
    expect(toNumber(parseClaim("0%").lo)).toBe(0);
    expect(matches("0%", 0, 10)).toBe(true);
    expect([toNumber(parseClaim("100%").lo), toNumber(parseClaim("100%").hi)]).toEqual([0.995, 1]);
    expect(matches("1.0", 10, 10)).toBe(true);
  });

  it.each([
    ["87.5", "more than 1"],
    ["120%", "more than 100%"],
    ["1.5", "more than 1"],
    ["81/80", "more successes than count"],
    ["3/0", "the count is 0"],
    ["1", "ambiguous"],
    ["about 80%", "not a claim"],
    ["", "not a claim"],
  ])("rejects %j (%s) as a usage error naming --claim", (text, why) => {
    expect(() => parseClaim(text)).toThrow(UsageError);
    expect(() => parseClaim(text)).toThrow(`--claim ${text}: ${why}`);
  });
});

describe("matchesClaim: exact, bounds included", () => {
  it("0.128 matches 51/400 = 0.1275 (its lower bound) although in doubles 0.128 - 0.1275 > 0.0005", () => {
    expect(0.128 - 51 / 400 > 0.0005).toBe(true);
    expect(matches("0.128", 51, 400)).toBe(true);
  });

  it("includes the upper bound and nothing beyond either bound", () => {
    // 0.128 -> [0.1275, 0.1285]; 0.1285 = 257/2000
    expect(matches("0.128", 257, 2000)).toBe(true);
    // 0.12855 = 2571/20000 is above; 0.12745 = 2549/20000 is below
    expect(matches("0.128", 2571, 20000)).toBe(false);
    expect(matches("0.128", 2549, 20000)).toBe(false);
  });

  it("87.5% matches 70/80 and the bounds 87.45% = 1749/2000 and 87.55% = 1751/2000, not 87.44% or 87.56%", () => {
    expect(matches("87.5%", 70, 80)).toBe(true);
    expect(matches("87.5%", 1749, 2000)).toBe(true);
    expect(matches("87.5%", 1751, 2000)).toBe(true);
    expect(matches("87.5%", 2186, 2500)).toBe(false); // 0.8744
    expect(matches("87.5%", 2189, 2500)).toBe(false); // 0.8756
  });

  it("86.67% matches 78/90 = 0.86666...", () => {
    // [0.86665, 0.86675]
    expect(matches("86.67%", 78, 90)).toBe(true);
    // 82/94 = 0.8723
    expect(matches("86.67%", 82, 94)).toBe(false);
  });
});

describe("offsetFromClaim and compareDistance: the one distance to a claim, exact", () => {
  it("is rate - claimed value as a signed fraction", () => {
    // 70/80 - 0.9 = 7/8 - 9/10 = (70 - 72)/80 = -1/40
    expect(offsetFromClaim(ratioOf(70, 80)!, parseClaim("90%"))).toEqual({ num: -1n, den: 40n });
    // 78/81 - 0.951 = 26/27 - 951/1000 = (26000 - 25677)/27000 = 323/27000
    expect(offsetFromClaim(ratioOf(78, 81)!, parseClaim("95.1%"))).toEqual({ num: 323n, den: 27000n });
  });

  it("ties rates at the same exact distance on either side, which doubles tell apart", () => {
    const claim = parseClaim("50%");
    const below = offsetFromClaim(ratioOf(9, 20)!, claim); // 0.45: -1/20
    const above = offsetFromClaim(ratioOf(11, 20)!, claim); // 0.55: +1/20
    expect(compareDistance(below, above)).toBe(0);
    // in doubles 0.5 - 0.45 and 0.55 - 0.5 differ, so an order by them would prefer one side
    expect(Math.abs(0.45 - 0.5)).not.toBe(Math.abs(0.55 - 0.5));
    expect(compareDistance(offsetFromClaim(ratioOf(12, 25)!, claim), below)).toBeLessThan(0); // 0.48 is nearer
  });
});

describe("meanOfRatios", () => {
  it("is the exact mean of the per-run rates: (27/80 + 28/78 + 25/78 + 31/77 + 33/77) / 5", () => {
    const m = meanOfRatios([
      { successes: 27, count: 80 },
      { successes: 28, count: 78 },
      { successes: 25, count: 78 },
      { successes: 31, count: 77 },
      { successes: 33, count: 77 },
    ]) as Fraction;
    // 27/80 + 53/78 + 64/77 = (27*3003 + 53*3080 + 64*3120) / 240240 = (81081 + 163240 + 199680) / 240240
    // = 444001/240240; / 5 = 444001/1201200 = 0.369631...
    expect(m).toEqual({ num: 444001n, den: 1201200n });
    expect(matchesClaim(m, parseClaim("0.3696"))).toBe(true);
    // pooled 144/390 = 0.369231 is outside [0.36955, 0.36965]
    expect(matchesClaim(frac(144, 390), parseClaim("0.3696"))).toBe(false);
  });

  it("skips runs with no trial, and is null when no run has one", () => {
    // (1/2 + 1/4) / 2 = 3/8; the 0/0 run has no rate
    expect(
      meanOfRatios([
        { successes: 1, count: 2 },
        { successes: 0, count: 0 },
        { successes: 1, count: 4 },
      ]),
    ).toEqual({ num: 3n, den: 8n });
    expect(meanOfRatios([{ successes: 0, count: 0 }])).toBeNull();
  });
});

describe("parseClaimsText", () => {
  it("reads one claim a line with an optional label; skips blanks and # comments", () => {
    const claims = parseClaimsText("# published\n\n0.3696 Orchestrator, tbench.ai\r\n36%\n70 / 80   the blog post\n", "claims.txt");
    expect(claims.map((c) => [c.text, c.label])).toEqual([
      ["0.3696", "Orchestrator, tbench.ai"],
      ["36%", null],
      ["70 / 80", "the blog post"],
    ]);
  });

  it("names the file and line of a bad claim", () => {
    expect(() => parseClaimsText("87.5%\nleaderboard 0.36\n", "c.txt")).toThrow("--claims c.txt:2:");
    expect(() => parseClaimsText("87.5%\n2.5 oops\n", "c.txt")).toThrow("--claims c.txt:2: 2.5: more than 1");
  });

  it("refuses a file without any claim", () => {
    expect(() => parseClaimsText("# nothing\n", "c.txt")).toThrow("no claim in the file");
  });
});
