-- id_lookalikes: ids that differ only by case or surrounding whitespace, task ids first.
-- Reads: id_lookalikes.
select field, folded, variants from id_lookalikes order by field desc, folded
