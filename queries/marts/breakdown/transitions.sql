-- transitions: trials per first -> final status.
-- Reads: trials.
create or replace view transitions as
select
    first_status,
    final_status,
    count(*) as trials
from trials
group by first_status, final_status;
