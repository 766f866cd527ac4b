/**
 * The one conversion policy for values read from DuckDB (STYLE convention 8):
 * BIGINT/HUGEINT -> number, DECIMAL -> number, TIMESTAMP(TZ) -> ISO 8601 UTC text,
 * DATE -> YYYY-MM-DD, lists/structs/maps recursively; everything JSON-safe, so
 * `JSON.stringify` never meets a bigint.
 */
import type { DuckDBValueConverter, DuckDBTimestampTZValue, DuckDBTimestampValue, DuckDBDateValue, DuckDBValue } from "@duckdb/node-api";
import { DuckDBTypeId, JSDuckDBValueConverter, createDuckDBValueConverter } from "./duckdb.js";

/** A JSON-safe cell value. */
export type Cell = null | boolean | number | string | Cell[] | { [key: string]: Cell };
export type Row = Record<string, Cell>;

const numberFromBigInt: DuckDBValueConverter<Cell> = (value) => Number(value as bigint);

const isoFromMicros: DuckDBValueConverter<Cell> = (value) => {
  const micros = (value as DuckDBTimestampTZValue | DuckDBTimestampValue).micros;
  const ms = Number(micros / 1000n);
  return Number.isFinite(ms) && Math.abs(ms) < 8.64e15 ? new Date(ms).toISOString().replace(".000Z", "Z") : String(value);
};

const byTypeId = {} as Record<DuckDBTypeId, DuckDBValueConverter<Cell> | undefined>;
for (const id of Object.values(DuckDBTypeId)) {
  if (typeof id === "number") byTypeId[id as DuckDBTypeId] = undefined;
}
const base: DuckDBValueConverter<Cell> = JSDuckDBValueConverter as unknown as DuckDBValueConverter<Cell>;

/** The converter handed to `convertRowObjects`. */
export const cellConverter: DuckDBValueConverter<Cell> = createDuckDBValueConverter<Cell>({
  ...byTypeId,
  [DuckDBTypeId.BIGINT]: numberFromBigInt,
  [DuckDBTypeId.UBIGINT]: numberFromBigInt,
  [DuckDBTypeId.HUGEINT]: numberFromBigInt,
  [DuckDBTypeId.UHUGEINT]: numberFromBigInt,
  [DuckDBTypeId.TIMESTAMP]: isoFromMicros,
  [DuckDBTypeId.TIMESTAMP_TZ]: isoFromMicros,
  [DuckDBTypeId.DATE]: (value: DuckDBValue) => String(value as DuckDBDateValue),
  [DuckDBTypeId.INTERVAL]: (value: DuckDBValue) => String(value),
  [DuckDBTypeId.UUID]: (value: DuckDBValue) => String(value),
  [DuckDBTypeId.BLOB]: (value: DuckDBValue) => String(value),
  [DuckDBTypeId.TIME]: (value: DuckDBValue) => String(value),
  // scalars and nested types: the driver's own JS conversion, with this policy applied inside
  ...Object.fromEntries(
    [
      DuckDBTypeId.BOOLEAN,
      DuckDBTypeId.TINYINT,
      DuckDBTypeId.SMALLINT,
      DuckDBTypeId.INTEGER,
      DuckDBTypeId.UTINYINT,
      DuckDBTypeId.USMALLINT,
      DuckDBTypeId.UINTEGER,
      DuckDBTypeId.FLOAT,
      DuckDBTypeId.DOUBLE,
      DuckDBTypeId.VARCHAR,
      DuckDBTypeId.DECIMAL,
      DuckDBTypeId.ENUM,
      DuckDBTypeId.LIST,
      DuckDBTypeId.STRUCT,
      DuckDBTypeId.ARRAY,
      DuckDBTypeId.SQLNULL,
    ].map((id) => [id, base]),
  ),
  [DuckDBTypeId.MAP]: (value, type, converter) => {
    const entries = (value as unknown as { entries: { key: DuckDBValue; value: DuckDBValue }[] }).entries;
    const t = type as unknown as { keyType: never; valueType: never };
    const out: Record<string, Cell> = {};
    for (const e of entries) out[String(converter(e.key, t.keyType, converter))] = converter(e.value, t.valueType, converter);
    return out;
  },
});
