-- denominators: the chain of docs/metrics.md, as data: per denominator its place in the chain
--   (`step`, 1 = total) and what it keeps and removes, in words. The rule that removes a
--   trial is excluded_from (queries/reference/excluded_from.sql), the one place it is written
--   in SQL; every view that needs the chain reads these rows, so a new denominator is a row
--   here and its rule there (docs/development.md, "Adding a denominator").
-- Reads: nothing.
create or replace view denominators as
select *
from (
    values
        (1, 'total', 'every trial, expected-but-missing ones too', 'nothing (the strict figure)'),
        (2, 'valid', 'total minus broken tasks and unrecognized outcomes', 'fault task (invalid), fault unknown (unrecognized status)'),
        (3, 'attributable', 'valid minus environment failures', 'fault environment: infrastructure, external API, queue, missing'),
        (4, 'completable', 'attributable minus the remaining timeouts', 'agent timeouts (internal diagnosis only)')
) as t (step, denominator, keeps, removes);
