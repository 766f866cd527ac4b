-- attribution: where a difference comes from, per side.
-- Reads: compare_attribution, compare_pairings.
select * from compare_attribution
where pairing_id in (select pairing_id from compare_pairings where versus_baseline)
order by pairing_id, side
