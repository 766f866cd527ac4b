-- retry_policy: attempts per trial at most, which statuses were retried, and how often.
-- Reads: attempts_classified, trials.
create or replace view retry_policy as
with

kept as (
    select * from attempts_classified
),

retried as (
    -- an attempt was retried when a later attempt of the same trial exists: when it is
    -- not its trial's final attempt (the highest number; a trial's numbers are distinct)
    select k.status
    from kept as k
    anti join trials as t on t.final_attempt_id = k.attempt_id
),

final as (
    select
        -- attempts made, by number: a summary record's attempt n stands for n attempts
        (select max(attempts_made) from trials) as max_attempts,
        (select count(*) filter (where attempts_made > 1) from trials) as trials_retried,
        (select list(struct_pack(status := status, attempts := n) order by n desc, status)
            from (select status, count(*) as n from retried group by status)) as retried_statuses
)

select * from final;
