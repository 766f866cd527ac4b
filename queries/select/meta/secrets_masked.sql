-- secrets_masked: the secrets masked at ingest, per kind.
-- Reads: secrets_masked.
select kind, secrets, lines from secrets_masked order by secrets desc, kind
