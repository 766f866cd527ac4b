-- stg_mark_reasons: why stg_attempt_marks has rows, if it has any: a row 'start_order' when a
--   loaded attempt is of a format that numbers trials or attempts by start
--   (format_traits.trial_numbering or attempt_numbering 'start_order'), and a row 'repeated_key'
--   per hash of a key (run_key, task, trial and attempt as recorded) that more than one loaded
--   attempt shares: the duplicates' candidates. No row on nearly every input: every attempt is
--   the one copy of its key, with the trial and attempt it records.
-- Reads: attempts, format_traits, stg_run_defaults, run_key.
create or replace view stg_mark_reasons as
select 'start_order' as reason, null::ubigint as key_hash
where exists (
    select 1
    from attempts
    semi join (select format from format_traits where 'start_order' in (trial_numbering, attempt_numbering)) using (format)
)
union all
select
    'repeated_key' as reason,
    hash(run_key(a.run_id, coalesce(a.agent, d.agent), coalesce(a.model, d.model)), a.task_id, a.trial, a.attempt) as key_hash
from attempts as a
left join stg_run_defaults as d on d.run_id = a.run_id
group by key_hash
having count(*) > 1;
