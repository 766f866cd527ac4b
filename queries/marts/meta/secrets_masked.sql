-- secrets_masked: masked secrets per kind; `accounting.secrets_masked` is their sum.
-- Reads: masked_secrets.
-- Empty when: masked_secrets is empty.
create or replace view secrets_masked as
-- secrets masked at ingest, per kind: how many, in how many lines (a source name counts as none)
select
    kind,
    sum(secrets) as secrets,
    count(line) as lines
from masked_secrets
group by kind;
