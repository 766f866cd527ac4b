-- transitions: trials per first -> final status, most first.
-- Reads: transitions.
select first_status, final_status, trials from transitions order by trials desc, first_status, final_status
