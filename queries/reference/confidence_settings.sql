-- confidence_settings: level, z, bootstrap resamples and seed of the intervals.
-- Reads: nothing.
create or replace view confidence_settings as
select
    0.95 as level,
    1.959963984540054 as z,
    2000 as resamples,
    20250312 as seed;
