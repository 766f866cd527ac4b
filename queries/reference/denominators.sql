-- denominators: the chain of docs/metrics.md, as data: per denominator its place in the chain
--   (`step`, 1 = total) and what it keeps and removes, in words. The rule that removes a
--   trial is excluded_from (queries/reference/excluded_from.sql), the one place it is written
--   in SQL; every view that needs the chain reads these rows, so a new denominator is a row
--   here and its rule there (docs/development.md, "Adding a denominator").
-- Reads: nothing; getvariable('excluded_tasks') (flag --exclude-tasks).
create or replace view denominators as
-- `validated` is in the chain only under --exclude-tasks FILE (the variable excluded_tasks):
-- without it the chain is the four steps, numbered 1..4
select row_number() over (order by chain_order)::integer as step, denominator, keeps, removes
from (
    values
        (1, 'total', 'every trial, expected-but-missing ones too', 'nothing (the strict figure)'),
        (2, 'valid', 'total minus broken tasks and unrecognized outcomes', 'fault task (invalid), fault unknown (unrecognized status)'),
        (3, 'validated', 'valid minus the tasks listed as broken (--exclude-tasks)', 'tasks known to be broken, each with its reason (--exclude-tasks FILE)'),
        (4, 'attributable', 'valid minus environment failures', 'fault environment: infrastructure, external API, queue, missing'),
        (5, 'completable', 'attributable minus the remaining timeouts', 'agent timeouts (internal diagnosis only)')
) as t (chain_order, denominator, keeps, removes)
where denominator <> 'validated' or getvariable('excluded_tasks') is not null;
