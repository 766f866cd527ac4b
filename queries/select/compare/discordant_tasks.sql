-- discordant_tasks: the common tasks whose final/total shares differ, largest first.
-- Reads: compare_discordant_tasks.
select * from compare_discordant_tasks order by pairing_id, abs(difference) desc, task_id
