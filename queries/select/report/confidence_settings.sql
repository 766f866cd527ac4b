-- confidence_settings: level, z, resamples and seed of the intervals (one row).
-- Reads: confidence_settings.
select level, z, resamples, seed from confidence_settings
