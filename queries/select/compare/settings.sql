-- settings: z and z for 80% power.
-- Reads: compare_settings.
select z, z_power from compare_settings
