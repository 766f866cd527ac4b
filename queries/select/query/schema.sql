-- schema: the tables and views a `denom query` can name, with their columns in order: the stored
--   tables, and the views (and reference tables) of queries/ as created today, which shadow
--   older copies kept in the file. Tables first by name, then views in the order queries/
--   creates them.
-- Reads: nothing (DuckDB's catalog: duckdb_tables, duckdb_views, duckdb_columns).
with relations as (
    select database_name, table_name as name, 'table' as kind, table_oid as oid
    from duckdb_tables() where not internal and not temporary
    union all
    select database_name, view_name, 'view', view_oid
    from duckdb_views() where not internal and not temporary
),

visible as (
    select * from relations
    where database_name = 'memory' or kind = 'table'
    qualify row_number() over (partition by name order by database_name = 'memory' desc) = 1
)

select v.name, v.kind, list(struct_pack(name := c.column_name, type := c.data_type) order by c.column_index) as columns
from visible as v
join duckdb_columns() as c on c.database_name = v.database_name and c.schema_name = 'main' and c.table_name = v.name
group by v.name, v.kind, v.oid
order by v.kind, case when v.kind = 'table' then v.name end, v.oid
