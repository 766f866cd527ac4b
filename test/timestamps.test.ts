import { describe, expect, it } from "vitest";
import { parseTimestamp } from "../src/formats/timestamps.js";

// 2025-03-12T09:00:00Z = 1741770000 s since the epoch
const T = 1_741_770_000;

describe("parseTimestamp", () => {
  it("reads ISO 8601 with Z", () => {
    expect(parseTimestamp("2025-03-12T09:00:00Z")).toEqual({ micros: T * 1e6, naive: false });
  });

  it("reads the common YYYY-MM-DDTHH:MM:SS[.mmm]Z digit by digit, refusing what is no date", () => {
    // 2024-02-29 is a leap day: T + 1 day is 2025-03-13, so 2024-02-29T00:00Z = 1709164800 s (Date.UTC(2024, 1, 29) / 1000)
    expect(parseTimestamp("2024-02-29T00:00:00.000Z")).toEqual({ micros: 1_709_164_800 * 1e6, naive: false });
    expect(parseTimestamp("2025-03-12T09:00:00.250Z")).toEqual({ micros: T * 1e6 + 250_000, naive: false });
    // day 31 of March: 19 days after T, one second before midnight: T + 19 * 86400 + 14 * 3600 + 59 * 60 + 59
    expect(parseTimestamp("2025-03-31T23:59:59Z")).toEqual({ micros: (T + 19 * 86_400 + 14 * 3_600 + 59 * 60 + 59) * 1e6, naive: false });
    expect(parseTimestamp("2025-02-29T00:00:00.000Z")).toEqual({ error: 'no such date: "2025-02-29T00:00:00.000Z"' });
    expect(parseTimestamp("2025-04-31T00:00:00Z")).toEqual({ error: 'no such date: "2025-04-31T00:00:00Z"' });
    // 24:00 is the end of the day (the general reading): 2025-03-13T00:00Z
    expect(parseTimestamp("2025-03-12T24:00:00.000Z")).toEqual({ micros: (T + 15 * 3_600) * 1e6, naive: false });
    expect(parseTimestamp("1969-12-31T23:59:59.999Z")).toEqual({
      error: 'timestamp out of range: "1969-12-31T23:59:59.999Z"; denom reads years 1970 to 2200 (UTC)',
    });
    // year 75 is year 75, not 1975 (Date.UTC's reading of two-digit years)
    expect(parseTimestamp("0075-01-01T00:00:00.000Z")).toEqual({
      error: 'timestamp out of range: "0075-01-01T00:00:00.000Z"; denom reads years 1970 to 2200 (UTC)',
    });
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

  it("reads epoch seconds, and milliseconds from 1e11", () => {
    expect(parseTimestamp(T)).toEqual({ micros: T * 1e6, naive: false });
    expect(parseTimestamp(T * 1000)).toEqual({ micros: T * 1e6, naive: false });
    expect(parseTimestamp(`${T}.5`)).toEqual({ micros: T * 1e6 + 500_000, naive: false });
  });

  it("reads epoch microseconds and nanoseconds by magnitude", () => {
    // 1e14 <= T * 1e6 = 1.74177e15 < 1e17: microseconds, not milliseconds (which would be the year 57163)
    expect(parseTimestamp(T * 1e6)).toEqual({ micros: T * 1e6, naive: false });
    // T * 1e9 = 1.74177e18 >= 1e17: nanoseconds; the value 1743494401000000000 ns is 1743494401 s
    expect(parseTimestamp(1_743_494_401_000_000_000)).toEqual({ micros: 1_743_494_401 * 1e6, naive: false });
    expect(parseTimestamp("1743494401000000000")).toEqual({ micros: 1_743_494_401 * 1e6, naive: false });
    // the bounds: 1e11 is milliseconds (1e11 ms = 1e8 s), 1e14 microseconds (1e8 s), 1e17 nanoseconds (1e8 s)
    expect(parseTimestamp(1e11)).toEqual({ micros: 1e8 * 1e6, naive: false });
    expect(parseTimestamp(1e14)).toEqual({ micros: 1e8 * 1e6, naive: false });
    expect(parseTimestamp(1e17)).toEqual({ micros: 1e8 * 1e6, naive: false });
  });

  it("accepts 1970 to 2200 and rejects instants outside, saying how the value was read", () => {
    expect(parseTimestamp(0)).toEqual({ micros: 0, naive: false });
    expect(parseTimestamp("1970-01-01T00:00:00Z")).toEqual({ micros: 0, naive: false });
    // 2200-12-31T23:59:59Z: 2201-01-01 is 231 * 365 + 56 = 84,371 days after 1970-01-01 (56 leap years:
    // 1972..2200 every 4th year is 58, minus 2100 and 2200), so 84,371 * 86,400 - 1 s
    expect(parseTimestamp("2200-12-31T23:59:59Z")).toEqual({ micros: (84_371 * 86_400 - 1) * 1e6, naive: false });
    expect(parseTimestamp("2201-01-01T00:00:00Z")).toEqual({ error: 'timestamp out of range: "2201-01-01T00:00:00Z"; denom reads years 1970 to 2200 (UTC)' });
    expect(parseTimestamp("1969-12-31T23:59:59Z")).toHaveProperty("error");
    expect(parseTimestamp("9999-12-31T23:59:59Z")).toHaveProperty("error");
    // Date.UTC reads the year 75 as 1975; it is the year 75 all the same
    expect(parseTimestamp("0075-06-01T00:00:00")).toHaveProperty("error");
    // -5 s is 1969-12-31T23:59:55Z
    expect(parseTimestamp(-5)).toEqual({
      error: "timestamp out of range: -5 (read as epoch seconds: 1969-12-31T23:59:55.000Z); denom reads years 1970 to 2200 (UTC)",
    });
    // 99,999,999,999 s (just below 1e11) is in the year 5138
    expect(parseTimestamp(99_999_999_999)).toEqual({
      error: "timestamp out of range: 99999999999 (read as epoch seconds: 5138-11-16T09:46:39.000Z); denom reads years 1970 to 2200 (UTC)",
    });
    // 1.7e21 ns = 1.7e12 s, beyond what Date shows (8.64e12 s is its limit; 1.7e12 s is the year 55840)
    expect(parseTimestamp(1.7e21)).toHaveProperty("error");
  });

  it("refuses free text and dates without a time", () => {
    expect(parseTimestamp("yesterday")).toHaveProperty("error");
    expect(parseTimestamp("2025-03-12")).toHaveProperty("error");
    expect(parseTimestamp("2025-13-01T00:00:00Z")).toHaveProperty("error");
    expect(parseTimestamp(true)).toHaveProperty("error");
  });
});
