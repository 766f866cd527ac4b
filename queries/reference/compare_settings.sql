-- compare_settings: the normal quantiles of the power formula (Miller 2024, "Adding Error
--   Bars to Evals", section 5): z of a two-sided 5% test and z_power = Phi^-1(0.8).
-- Reads: confidence_settings.
create or replace view compare_settings as
select z, 0.8416212335729143 as z_power from confidence_settings;
