-- timeout_limits: kept attempts per timeout limit (seconds).
-- Reads: attempts_classified.
create or replace view timeout_limits as
select
    timeout_limit_s,
    count(*) as attempts
from attempts_classified
group by timeout_limit_s;
