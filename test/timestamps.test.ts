import { describe, expect, it } from "vitest";
import { parseTimestamp } from "../src/ingest/timestamps.js";

// 2025-03-12T09:00:00Z = 1741770000 s since the epoch
const T = 1_741_770_000;

describe("parseTimestamp", () => {
  it("reads ISO 8601 with Z", () => {
    expect(parseTimestamp("2025-03-12T09:00:00Z")).toEqual({ micros: T * 1e6, naive: false });
  });

  it("normalises an offset to UTC", () => {
    // 10:30 at +01:30 is 09:00 UTC
    expect(parseTimestamp("2025-03-12T10:30:00+01:30")).toEqual({ micros: T * 1e6, naive: false });
    expect(parseTimestamp("2025-03-12T04:00:00-0500")).toEqual({ micros: T * 1e6, naive: false });
  });

  it("keeps fractions to the microsecond", () => {
    expect(parseTimestamp("2025-03-12T09:00:00.250001Z")).toEqual({ micros: T * 1e6 + 250_001, naive: false });
  });

  it("reads a timestamp without offset as UTC and marks it naive", () => {
    expect(parseTimestamp("2025-03-12 09:00:00")).toEqual({ micros: T * 1e6, naive: true });
  });

  it("reads epoch seconds, and milliseconds above 1e11", () => {
    expect(parseTimestamp(T)).toEqual({ micros: T * 1e6, naive: false });
    expect(parseTimestamp(T * 1000)).toEqual({ micros: T * 1e6, naive: false });
    expect(parseTimestamp(`${T}.5`)).toEqual({ micros: T * 1e6 + 500_000, naive: false });
  });

  it("refuses free text and dates without a time", () => {
    expect(parseTimestamp("yesterday")).toHaveProperty("error");
    expect(parseTimestamp("2025-03-12")).toHaveProperty("error");
    expect(parseTimestamp("2025-13-01T00:00:00Z")).toHaveProperty("error");
    expect(parseTimestamp(true)).toHaveProperty("error");
  });
});
