// The renderers' number formatting without Intl (src/number-format.ts): every value
// below is worked out by hand from en-US grouping and the rounding rule stated there.
import { describe, expect, it } from "vitest";
import { compactCount, count, fixed } from "../src/number-format.js";

describe("count", () => {
  it("groups the digits of an integer in threes", () => {
    expect(count(0)).toBe("0");
    expect(count(999)).toBe("999");
    expect(count(1000)).toBe("1,000");
    expect(count(1234567)).toBe("1,234,567");
    expect(count(-1234567)).toBe("-1,234,567");
  });
  it("keeps the decimals of a fraction", () => {
    expect(count(0.5)).toBe("0.5");
    expect(count(12345.25)).toBe("12,345.25");
  });
});

describe("compactCount", () => {
  it("groups a count below 10,000 and shortens the larger ones to k, M and G with one decimal at most", () => {
    expect(compactCount(0)).toBe("0");
    expect(compactCount(2500)).toBe("2,500");
    expect(compactCount(9999)).toBe("9,999");
    expect(compactCount(10_000)).toBe("10k");
    expect(compactCount(12_500)).toBe("12.5k");
    expect(compactCount(100_000)).toBe("100k");
    // 999,949 is 999.949k: one decimal, 999.9k; 999,950 would round to 1000.0k, so it is 1M
    expect(compactCount(999_949)).toBe("999.9k");
    expect(compactCount(999_950)).toBe("1M");
    expect(compactCount(1_000_000)).toBe("1M");
    expect(compactCount(1_500_000)).toBe("1.5M");
    expect(compactCount(2_000_000_000)).toBe("2G");
    expect(compactCount(-25_000)).toBe("-25k");
  });
  it("leaves a tick between two whole numbers without a label", () => {
    expect(compactCount(0.5)).toBe("");
    expect(compactCount(2.5)).toBe("");
  });
});

describe("fixed", () => {
  it("rounds the shortest decimal that reads back as the value, half away from zero", () => {
    // 1.005 is stored as 1.00499999999999989...; its shortest decimal is 1.005, rounded up to 1.01
    expect(fixed(1.005, 2)).toBe("1.01");
    expect(fixed(2.675, 2)).toBe("2.68");
    expect(fixed(0.045, 2)).toBe("0.05");
    expect(fixed(-2.5, 0)).toBe("-3");
    expect(fixed(9.995, 2)).toBe("10.00");
  });
  it("pads to the digits asked for and groups the whole part", () => {
    expect(fixed(3, 2)).toBe("3.00");
    expect(fixed(1234.5678, 2)).toBe("1,234.57");
    expect(fixed(999999.995, 2)).toBe("1,000,000.00");
    expect(fixed(0.0001, 1)).toBe("0.0");
  });
  it("writes a negative value that rounds to zero as -0, as Intl does", () => {
    expect(fixed(-0.001, 2)).toBe("-0.00");
    expect(fixed(-0, 1)).toBe("-0.0");
  });
  it("agrees with toLocaleString on values in exponent notation", () => {
    // String(1e-7) is "1e-7" and String(1e21) "1e+21": both go to Intl
    expect(fixed(1e-7, 2)).toBe("0.00");
    expect(fixed(1e21, 0)).toBe("1,000,000,000,000,000,000,000");
  });
});
