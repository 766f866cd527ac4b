-- discordant_tasks: the common tasks whose final/total shares differ, largest first.
-- Reads: compare_discordant_tasks, compare_pairings.
select * from compare_discordant_tasks
where pairing_id in (select pairing_id from compare_pairings where versus_baseline)
order by pairing_id, abs(difference) desc, task_id
