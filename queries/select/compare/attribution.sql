-- attribution: where a difference comes from, per side.
-- Reads: compare_attribution.
select * from compare_attribution order by pairing_id, side
