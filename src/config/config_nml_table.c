/* The LFRic namelist tables: every group and key of LFRic's GungHo and
 * gravity_wave namelists, and per namelist kind what each key does in gale
 * (converted, honoured, refused or without effect, and why), with their
 * lookups and their own rules (gale_config_nml_check_). The reader,
 * config_nml.c, reads a namelist by them; docs/lfric-namelist.md has the
 * table and the reasons. */
#include "config_internal.h"
#include "config_nml_table.h"
#include "gale_config.h"

#include <stdio.h>
#include <string.h>


/* Every group and key that LFRic's GungHo and gravity_wave rose metadata
 * define (lfric_apps science/gungho, applications/gravity_wave and what they
 * import: lfric_core's driver, the physics schemes' groups), and the older
 * lfric_core mini-app's: the keys an LFRic user may legitimately bring.
 * &files also takes any <field>_ancil_path. */
const gale_lfric_group_t gale_lfric_keys[] = {
    {"aerosol", "aclw_file acsw_file activation_scheme anlw_file answ_file crlw_file "
                "crsw_file easyaerosol_cdnc easyaerosol_lw easyaerosol_sw emissions "
                "glomap_mode horiz_d l_radaer marine_pom_ems_scaling murk murk_lbc "
                "murk_prognostic murk_source_scaling murk_visibility n_radaer_step prec_file "
                "sea_salt_ems_scaling sulphuric_strat_climatology sulphuric_strat_column "
                "ukca_mode_seg_size ukca_scale_marine_pom_ems ukca_scale_sea_salt_ems us_am"},
    {"base_mesh", "filename file_prefix prime_mesh_name geometry topology "
                  "offline_partitioning partitioner prepartitioned fplane f_lat_deg"},
    {"blayer", "a_ent_2 a_ent_shr bl_levels bl_mix_w bl_res_inv c_gust cbl_mix_fac cbl_opt "
               "dec_thres_cloud dec_thres_cu dyn_diag dzrad_disc_opt entr_smooth_dec "
               "flux_bc_opt free_atm_mix fric_heating improved_tke_diag interp_local kprof_cu "
               "l_converge_ga l_use_sml_dsc_fixes near_neut_z_on_l new_kcloudtop ng_stress "
               "noice_in_turb num_sweeps_bflux p_unstable reduce_fa_mix sbl_opt sc_diag_opt "
               "sg_orog_mixing zhloc_depth_fac"},
    {"boundaries", "limited_area blend_frequency blending_weights boundary_e boundary_n "
                   "boundary_s boundary_w edge_cells_ew edge_cells_ns inner_width_ew "
                   "inner_width_ns lbc_method normal_only outer_width_ew outer_width_ns "
                   "output_lbcs rim_width_ew rim_width_ns solver_boundary_depth "
                   "transport_boundary_depth transport_overwrite_freq blending_weights_w2v "
                   "lbc_bal_meth lbc_eos_height lbc_sort_theta"},
    {"checks", "limit_cfl max_cfl"},
    {"chemistry", "chem_scheme chem_timestep fastjx_dir fastjx_mode fastjx_numwavel "
                  "fastjx_prescutoff fjx_scat_file fjx_solar_file fjx_solcyc_months "
                  "fjx_solcyc_type fjx_spec_file flexchem_opt i_chem_timestep_halvings "
                  "i_ukca_chem_version l_ukca_asad_full l_ukca_linox_scaling "
                  "l_ukca_quasinewton l_ukca_ro2_ntp lightnox_scale_fac photol_scheme "
                  "top_bdy_opt"},
    {"cloud", "bm_ez_opt cff_spread_rate cld_fsd_hill cloud_call_b4_conv "
              "cloud_horizontal_ice_fsd cloud_horizontal_liq_fsd cloud_pc2_tol "
              "cloud_pc2_tol_2 dbsdtbs_turb_0 ent_coef_bm ez_max falliceshear_method "
              "filter_optical_depth fsd_conv_const fsd_min_conv_frac fsd_nonconv_ice_const "
              "fsd_nonconv_liq_const ice_width l_bm_sigma_s_grad l_bm_tweaks "
              "l_ensure_max_in_cloud_pc2 max_sigmas min_sigx_ft mphys_erosion "
              "opt_depth_thresh pc2_erosion_numerics pc2_homog_g_method pc2_init_logic "
              "pc2_init_method pc2_turb_horiz rh_crit rh_crit_opt scheme subgrid_qv "
              "turb_var_fac_bm two_d_fsd_factor use_fsd_eff_res"},
    {"convection", "c_mass_sh cape_timescale cca_md_scaling cpress_term cv_scheme dx_ref "
                   "efrac ent_fac_sh l_conv_prog_dq l_conv_prog_dtheta l_cvdiag_ctop_qmax "
                   "llcs_first_outer mparwtr number_of_convection_substeps orig_mdet_fac "
                   "par_gen_mass_fac par_gen_rhpert par_radius_ppn_max prog_ent_grad "
                   "prog_ent_int prog_ent_max prog_ent_min qlmin r_det resdep_precipramp "
                   "thpixs_mid"},
    {"cosp", "l_cosp n_cosp_step n_subcol_gen"},
    {"damping_layer", "dl_base dl_str dl_type"},
    {"departure_points", "horizontal_limit horizontal_method n_dep_pt_iterations "
                         "share_stencil_extent vertical_limit vertical_method "
                         "vertical_sorting"},
    {"development", "implement_consolidated_multigrid"},
    {"domain_size", "planar_domain_min_x planar_domain_max_x planar_domain_min_y "
                    "planar_domain_max_y"},
    {"energy_correction", "encorr_usage integral_method reset_hours"},
    {"esm_couple", "l_esm_couple_test"},
    {"external_forcing", "hs_random temp_tend_coord temp_tend_data temp_tend_heights "
                         "temp_tend_size theta_forcing wind_forcing diffusion_coefficient "
                         "diffusion_order filtering_order geostrophic_forcing "
                         "pc2_force_response theta_relaxation vapour_forcing "
                         "vertadvect_forcing"},
    {"extrusion", "method domain_top domain_height number_of_layers planet_radius "
                  "stretching_method eta_values stretching_height"},
    {"files", "ancil_directory coarse_ancil_directory checkpoint_stem_name diag_stem_name "
              "lbc_directory lbc_filename ls_directory ls_filename start_dump_directory "
              "start_dump_filename ea_ancil_directory iau_addinf_path iau_bcorr_path iau_path "
              "iau_pert_path iau_sst_path iau_surf_path nudging_directory nudging_filename"},
    {"finite_element", "cellshape element_order element_order_h element_order_v coord_order "
                       "coord_order_nonprime coordinate_order coord_space coord_system "
                       "rehabilitate vorticity_in_w1"},
    {"formulation", "dlayer_on dry_static_adjust eos_method exner_from_eos "
                    "horizontal_physics_predictor horizontal_transport_predictor "
                    "init_exner_bt l_multigrid lagged_orog moisture_formulation "
                    "moisture_in_solver p2theta_vert rotating shallow si_momentum_equation "
                    "theta_moist_source use_multires_coupling use_physics use_wavedynamics "
                    "vector_invariant solver_moisture_conservation"},
    {"geostrophic_forcing", "coordinate heights number_heights number_times profile_data_u "
                            "profile_data_v times"},
    {"gravity_wave_constants", "speed_of_sound b_space"},
    {"helmholtz_solver", "method preconditioner si_pressure_tolerance si_pressure_a_tol "
                         "si_pressure_maximum_iterations gcrk fail_on_non_converged "
                         "monitor_convergence normalise jacobi_relaxation"},
    {"iau", "iau_ainc_multifile iau_mode iau_outerloop iau_pc2 iau_tendency_addinf "
            "iau_tendency_ainc iau_tendency_bcorr iau_tendency_pertinc iau_ts_start "
            "iau_use_addinf iau_use_bcorr iau_use_level_one_temp iau_use_pertinc "
            "iau_wet_density iau_window_length"},
    {"iau_addinf_io", "filename name start_time"},
    {"iau_ainc_io", "filename name start_time"},
    {"iau_bcorr_io", "filename name start_time"},
    {"ideal_surface", "canopy_height leaf_area_index n_snow_layers snow_depth "
                      "snow_layer_ice_mass snow_layer_temp snow_layer_thickness soil_moisture "
                      "soil_temperature surf_tile_fracs surf_tile_temps tile_snow_mass"},
    {"idealised", "test perturb_init f_lon_deg perturb_magnitude perturb_seed"},
    {"initial_density", "density_background density_max r1 r2 x1 x2 y1 y2 z1 z2"},
    {"initial_pressure", "method surface_pressure"},
    {"initial_temperature", "bvf_square pert_centre pert_width_scaling perturb theta_surf "
                            "profile_data profile_heights profile_size theta_pert_end "
                            "theta_pert_size theta_pert_start"},
    {"initial_vapour", "profile_data profile_heights profile_size"},
    {"initial_wind", "profile u0 v0 nl_constant sbr_angle_lat sbr_angle_lon smp_init_wind "
                     "wind_time_period profile_data_u profile_data_v profile_data_w "
                     "profile_heights_uv profile_heights_w profile_size_uv profile_size_w "
                     "shear wavelength"},
    {"initialization", "init_option ancil_option lbc_option ls_option hydro_coriolis "
                       "read_w2h_wind coarse_aerosol_ancil coarse_orography_ancil "
                       "coarse_ozone_ancil n_orog_smooth sea_ice_source snow_source "
                       "w0_orography_mapping zero_w2v_wind init_eos_height init_exner_method "
                       "init_sort_theta sst_source"},
    {"io", "checkpoint_read checkpoint_write counter_output_suffix diag_active_files "
           "diag_always_on_sampling diagnostic_frequency file_convention nodal_output_on_w3 "
           "subroutine_counters subroutine_timers timer_output_path use_xios_io "
           "write_conservation_diag write_diag write_dump write_fluxes write_minmax_tseries "
           "checkpoint_times end_of_run_checkpoint multifile_io write_initial"},
    {"logging", "run_log_level log_to_rank_zero_only"},
    {"microphysics", "a_ratio_exp a_ratio_fac ai aut_qc c_r_correl casim_cdnc_opt ci_input "
                     "cic_input droplet_tpr fcrit graupel_scheme heavy_rain_evap_fac "
                     "l_improve_precfrac_checks l_mcr_precfrac l_proc_fluxes "
                     "microphysics_casim mp_dz_scal ndrop_surf nscalesf nsigmasf orog_block "
                     "orog_rain orog_rime prog_tnuc qcl_rime shape_rime turb_gen_mixph "
                     "update_precfrac_opt z_surf"},
    {"mixed_solver", "si_method si_preconditioner si_tolerance si_maximum_iterations gcrk "
                     "mixed_solver_a_tol eliminate_variables fail_on_non_converged guess_np1 "
                     "jacobi_relaxation monitor_convergence normalise reference_reset_freq "
                     "reference_reset_time split_w"},
    {"mixing", "leonard_term smagorinsky viscosity viscosity_mu conservative_diffusion "
               "density_weighted fullstress leonard_kl max_diff_factor method mix_factor "
               "smag_l_calc"},
    {"multigrid", "l_multigrid multigrid_chain_nitems chain_mesh_tags ugrid smooth_relaxation "
                  "n_presmooth n_postsmooth n_coarsesmooth coarsen_multigrid_tiles "
                  "max_tiled_multigrid_level"},
    {"multires_coupling", "aerosol_mesh_name coarse_aerosol_transport coarse_nudging "
                          "coarse_rad_aerosol dynamics_mesh_name lowest_order_aero_flag "
                          "multires_coupling_mesh_tags multires_coupling_mode "
                          "negative_correction nudging_mesh_name orography_mesh_name "
                          "physics_mesh_name reconstruction recovery_order"},
    {"nudging", "nudge_data_levels nudging_level_bottom nudging_level_top nudging_source "
                "nudging_width_bottom nudging_width_top"},
    {"orbit", "arg_periapsis arg_periapsis_inc eccentricity eccentricity_inc elements epoch "
              "fixed_azimuth_angle fixed_zenith_angle hour_angle hour_angle_inc mean_anomaly "
              "mean_anomaly_inc obliquity obliquity_inc observer_lat observer_lon "
              "semimajor_axis semimajor_axis_inc spin"},
    {"orographic_drag", "cd_flow_blocking fr_crit_gwd fr_sat_gwd gwd_scaling include_moisture "
                        "mountain_height_scaling orographic_blocking_heating "
                        "orographic_gwd_heating vertical_smoothing"},
    {"orography", "orog_init_option n_orog_smooth orography_order profile "
                  "w0_multigrid_mapping"},
    {"orography_agnesi_cartesian", "direction half_width_x half_width_y mountain_height "
                                   "x_centre y_centre"},
    {"orography_agnesi_spherical", "half_width lambda_centre_dec lambda_focus_dec "
                                   "mountain_height phi_centre_dec phi_focus_dec"},
    {"orography_bell_cartesian", "direction half_width_x half_width_y mountain_height "
                                 "x_centre y_centre"},
    {"orography_bell_spherical", "lambda_centre1 lambda_centre2 mountain_height phi_centre1 "
                                 "phi_centre2 radius_lat radius_lon"},
    {"orography_dcmip200_spherical", "lambda_centre_dec mountain_height osc_half_width_dec "
                                     "phi_centre_dec radius_dec"},
    {"orography_schar_cartesian", "direction half_width_x half_width_y mountain_height "
                                  "wavelength x_centre y_centre"},
    {"orography_schar_spherical", "half_width lambda_centre_dec mountain_height "
                                  "phi_centre_dec wavelength"},
    {"partitioning", "partitioner panel_decomposition panel_xproc panel_yproc tile_size_x "
                     "tile_size_y inner_halo_tiles coarsen_multigrid_tiles "
                     "generate_inner_halos max_tiled_multigrid_level"},
    {"physics", "bl_segment blayer_placement configure_segments conv_gr_segment "
                "convection_placement electric_placement evap_condense_placement gw_segment "
                "limit_drag_incs lowest_level ls_ppn_segment lw_segment_limit "
                "microphysics_placement orographic_drag_placement pmsl_halo_calcs "
                "radiation_placement sample_physics_scalars sample_physics_winds "
                "sample_physics_winds_correction smagorinsky_placement spectral_gwd_placement "
                "stochastic_physics_placement sw_segment_limit ussp_segment"},
    {"planet", "radius scaling_factor gravity omega cp rd p_zero"},
    {"radiation", "cloud_entrapment cloud_inhomogeneity cloud_overlap cloud_representation "
                  "cloud_vertical_decorr constant_droplet_effective_radius "
                  "droplet_effective_radius i_cloud_ice_type_lw i_cloud_ice_type_lwinc "
                  "i_cloud_ice_type_sw i_cloud_ice_type_swinc i_cloud_liq_type_lw "
                  "i_cloud_liq_type_lwinc i_cloud_liq_type_sw i_cloud_liq_type_swinc "
                  "l_inc_radstep l_planet_grey_surface l_rayleigh_sw l_trans_zen_correction "
                  "liu_aparam liu_bparam mcica_data_file n_horiz_ang n_horiz_layer "
                  "n_inc_radstep n_radstep planet_albedo planet_emissivity scatter_method_lw "
                  "scatter_method_lwinc spectral_file_lw spectral_file_lwinc spectral_file_sw "
                  "spectral_file_swinc topography"},
    {"radiative_gases", "cfc113_rad_opt cfc11_rad_opt cfc12_rad_opt ch4_rad_opt co2_rad_opt "
                        "co_rad_opt cs_rad_opt h2_rad_opt h2o_rad_opt hcfc22_rad_opt "
                        "hcn_rad_opt he_rad_opt hfc134a_rad_opt k_rad_opt l_cts_fcg_rates "
                        "li_rad_opt n2_rad_opt n2o_rad_opt na_rad_opt nh3_rad_opt o2_rad_opt "
                        "o3_rad_opt rb_rad_opt so2_rad_opt tio_rad_opt vo_rad_opt "
                        "cfc113_clim_fcg_levls cfc113_clim_fcg_nyears cfc113_clim_fcg_rates "
                        "cfc113_clim_fcg_years cfc113_mix_ratio cfc11_clim_fcg_levls "
                        "cfc11_clim_fcg_nyears cfc11_clim_fcg_rates cfc11_clim_fcg_years "
                        "cfc11_mix_ratio cfc12_clim_fcg_levls cfc12_clim_fcg_nyears "
                        "cfc12_clim_fcg_rates cfc12_clim_fcg_years cfc12_mix_ratio "
                        "ch4_clim_fcg_levls ch4_clim_fcg_nyears ch4_clim_fcg_rates "
                        "ch4_clim_fcg_years ch4_mix_ratio co2_clim_fcg_levls "
                        "co2_clim_fcg_nyears co2_clim_fcg_rates co2_clim_fcg_years "
                        "co2_mix_ratio co_clim_fcg_levls co_clim_fcg_nyears co_clim_fcg_rates "
                        "co_clim_fcg_years co_mix_ratio cs_clim_fcg_levls cs_clim_fcg_nyears "
                        "cs_clim_fcg_rates cs_clim_fcg_years cs_mix_ratio h2_clim_fcg_levls "
                        "h2_clim_fcg_nyears h2_clim_fcg_rates h2_clim_fcg_years h2_mix_ratio "
                        "h2o_clim_fcg_levls h2o_clim_fcg_nyears h2o_clim_fcg_rates "
                        "h2o_clim_fcg_years h2o_mix_ratio hcfc22_clim_fcg_levls "
                        "hcfc22_clim_fcg_nyears hcfc22_clim_fcg_rates hcfc22_clim_fcg_years "
                        "hcfc22_mix_ratio hcn_clim_fcg_levls hcn_clim_fcg_nyears "
                        "hcn_clim_fcg_rates hcn_clim_fcg_years hcn_mix_ratio "
                        "he_clim_fcg_levls he_clim_fcg_nyears he_clim_fcg_rates "
                        "he_clim_fcg_years he_mix_ratio hfc134a_clim_fcg_levls "
                        "hfc134a_clim_fcg_nyears hfc134a_clim_fcg_rates "
                        "hfc134a_clim_fcg_years hfc134a_mix_ratio k_clim_fcg_levls "
                        "k_clim_fcg_nyears k_clim_fcg_rates k_clim_fcg_years k_mix_ratio "
                        "li_clim_fcg_levls li_clim_fcg_nyears li_clim_fcg_rates "
                        "li_clim_fcg_years li_mix_ratio n2_clim_fcg_levls n2_clim_fcg_nyears "
                        "n2_clim_fcg_rates n2_clim_fcg_years n2_mix_ratio n2o_clim_fcg_levls "
                        "n2o_clim_fcg_nyears n2o_clim_fcg_rates n2o_clim_fcg_years "
                        "n2o_mix_ratio na_clim_fcg_levls na_clim_fcg_nyears na_clim_fcg_rates "
                        "na_clim_fcg_years na_mix_ratio nh3_clim_fcg_levls "
                        "nh3_clim_fcg_nyears nh3_clim_fcg_rates nh3_clim_fcg_years "
                        "nh3_mix_ratio o2_clim_fcg_levls o2_clim_fcg_nyears o2_clim_fcg_rates "
                        "o2_clim_fcg_years o2_mix_ratio o3_clim_fcg_levls o3_clim_fcg_nyears "
                        "o3_clim_fcg_rates o3_clim_fcg_years o3_mix_ratio o3_profile_data "
                        "o3_profile_heights o3_profile_size rb_clim_fcg_levls "
                        "rb_clim_fcg_nyears rb_clim_fcg_rates rb_clim_fcg_years rb_mix_ratio "
                        "so2_clim_fcg_levls so2_clim_fcg_nyears so2_clim_fcg_rates "
                        "so2_clim_fcg_years so2_mix_ratio tio_clim_fcg_levls "
                        "tio_clim_fcg_nyears tio_clim_fcg_rates tio_clim_fcg_years "
                        "tio_mix_ratio vo_clim_fcg_levls vo_clim_fcg_nyears vo_clim_fcg_rates "
                        "vo_clim_fcg_years vo_mix_ratio"},
    {"section_choice", "dynamics external_forcing aerosol boundary_layer cloud convection iau "
                       "iau_surf methane_oxidation microphysics orographic_drag radiation "
                       "spectral_gwd stochastic_physics surface chemistry electric iau_sst"},
    {"solver", "method preconditioner tolerance maximum_iterations gcrk fail_on_non_converged "
               "monitor_convergence jacobi_relaxation"},
    {"specified_surface", "function_amplitude_e function_amplitude_h function_name_fluxes "
                          "function_name_sst function_period_e function_period_h "
                          "function_phase_e function_phase_h internal_flux_method "
                          "internal_flux_value length_of_day profile_size profile_size_sst "
                          "sea_surf_temps specified_flux_e specified_flux_h surf_temp_forcing "
                          "time_data time_data_sst time_of_max_flux time_units time_units_sst"},
    {"spectral_gwd", "add_cgw cgw_scale_factor ussp_heating ussp_launch_factor wavelstar"},
    {"star", "stellar_constant stellar_radius"},
    {"stochastic_physics", "blpert_add_vertical_shape blpert_decorrelation_time "
                           "blpert_height_bottom blpert_height_top blpert_max_magnitude "
                           "blpert_mesh_name blpert_noncumulus_points blpert_npts_from_edge "
                           "blpert_only_near_edge blpert_time_correlation blpert_type "
                           "ens_memb rp_bl_a_ent_1 rp_bl_a_ent_shr rp_bl_a_ent_shr_max "
                           "rp_bl_cbl_mix_fac rp_bl_cld_top_diffusion rp_bl_min_mix_length "
                           "rp_bl_neutral_mix_length rp_bl_ricrit rp_bl_smag_coef "
                           "rp_bl_stable_ri_coef rp_callfreq rp_cycle_in rp_cycle_out "
                           "rp_cycle_tm rp_decorr_ts rp_lsfc_alnir rp_lsfc_alnir_max "
                           "rp_lsfc_alnir_min rp_lsfc_alpar rp_lsfc_alpar_max "
                           "rp_lsfc_alpar_min rp_lsfc_lai_mult rp_lsfc_lai_mult_max "
                           "rp_lsfc_lai_mult_min rp_lsfc_omega rp_lsfc_omega_max "
                           "rp_lsfc_omega_min rp_lsfc_omnir rp_lsfc_omnir_max "
                           "rp_lsfc_omnir_min rp_lsfc_orog_drag_param rp_lsfc_z0_soil "
                           "rp_lsfc_z0_urban_mult rp_lsfc_z0hm_pft rp_lsfc_z0hm_pft_max "
                           "rp_lsfc_z0hm_pft_min rp_lsfc_z0hm_soil rp_lsfc_z0v "
                           "rp_lsfc_z0v_max rp_lsfc_z0v_min rp_mp_ci rp_mp_fxd_cld_num "
                           "rp_mp_ice_fspd rp_mp_mp_czero rp_mp_mpof rp_mp_ndrop_surf "
                           "rp_mp_snow_fspd rp_ran_max skeb_add_increments skeb_br "
                           "skeb_convective_dissipation skeb_convective_dissipation_factor "
                           "skeb_convective_dissipation_modulation skeb_decorrelation_time "
                           "skeb_div_du skeb_level_bottom skeb_level_bottom_cap "
                           "skeb_level_top skeb_n_smoothing_iters skeb_numerical_dissipation "
                           "skeb_numerical_dissipation_factor skeb_rot_du "
                           "skeb_total_backscatter spt_add_increments "
                           "spt_convection_cfl_limit spt_decorrelation_time "
                           "spt_level_begin_tapering_bottom spt_level_begin_tapering_top "
                           "spt_level_bottom spt_level_top spt_moisture_conservation "
                           "spt_mse_conservation spt_n_smoothing_iters "
                           "spt_orog_forcing_pattern_thresh spt_stddev_convection "
                           "spt_stddev_microphysics spt_stddev_orog_thres "
                           "spt_stddev_radiation spt_use_convection spt_use_microphysics "
                           "spt_use_radiation stph_n_max stph_n_min use_random_parameters "
                           "use_skeb use_spt"},
    {"surface", "check_soilm_negatives emis_method_sea emis_method_soil "
                "lake_water_conservation"},
    {"temp_tend_data", "coordinate heights number_heights number_times profile_data times"},
    {"theta_relax", "coordinate heights number_heights number_times profile_data times "
                    "timescale"},
    {"time", "timestep_start timestep_end calendar calendar_start calendar_type "
             "calendar_origin"},
    {"timestepping", "method dt alpha outer_iterations inner_iterations runge_kutta_method "
                     "spinup_alpha spinup_period spinup_winds tau_r tau_t tau_u"},
    {"transport", "adjust_theta adjust_tracer_equation adjust_vhv_wind advective_then_flux "
                  "broken_w2_projection calculate_detj cap_density_predictor cfl_mol_1d_stab "
                  "cfl_mol_2d_stab cfl_mol_3d_stab cheap_update consistent_metric "
                  "dep_pt_stencil_extent dry_field_name enforce_min_value equation_form "
                  "ffsl_advective_splitting ffsl_flux_splitting ffsl_inner_order "
                  "ffsl_outer_order ffsl_splitting ffsl_unity_3d ffsl_vertical_order "
                  "field_names fv_horizontal_order fv_vertical_order horizontal_method "
                  "horizontal_monotone log_space max_vert_cfl_calc min_val_method min_value "
                  "moisture_eqn oned_reconstruction operators panel_edge_high_order "
                  "panel_edge_treatment profile_size reversible runge_kutta_method scheme "
                  "si_outer_transport slice_order special_edges_monotone splitting "
                  "substep_transport theta_dispersion_correction theta_variable "
                  "use_density_predictor vertical_method vertical_monotone "
                  "vertical_monotone_order vertical_sl_order wind_mono_top "
                  "wind_mono_top_depth adjust_theta_above ageofair_reset_level "
                  "min_val_abs_tol min_val_max_iterations transport_ageofair"},
    {"vapour_forcing", "coordinate heights number_heights number_times profile_data times"},
    {"vertadvect", "heights number_heights number_times profile_data_w times"},
    {"wind_forcing", "coordinate heights number_heights number_times profile_data_u "
                     "profile_data_v times"},
};
_Static_assert(sizeof gale_lfric_keys / sizeof gale_lfric_keys[0] == NGROUPS, "NGROUPS in config_nml_table.h");

#define N_IO "output, checkpoints, logging, timers or file names"
#define N_PART "partitioning and tiling: gale's answers are the same on any rank count"
#define N_FE "LFRic's finite-element coordinates, bases or quadrature; gale's lowest-order " \
             "discretisation has its own (docs/numerics.md)"
#define N_SOLVE "an internal of LFRic's solvers: it moves the answers only within the " \
                "solver's tolerance, as gale's own solver settings do"
#define N_PHYS "LFRic's physics, which runs only with &formulation use_physics = .true. " \
               "(refused)"
#define N_LAM "limited-area settings, used only with &boundaries limited_area = .true. " \
              "(refused)"
#define N_OROG "orography, used only with &orography orog_init_option other than 'none' " \
               "(refused): the surface is flat"
#define N_DUMP "initialisation from a start dump or ancillary files, used only with " \
               "&initialization init_option other than 'analytic' (refused)"
#define N_MOIST "moisture, absent with &formulation moisture_formulation = 'dry' (the " \
                "only value gale runs)"
#define N_TRAN "a setting of LFRic's transport schemes (orders, limiters and floors of its " \
               "FFSL and semi-Lagrangian schemes, departure points, predictors); gale's " \
               "method of lines has its own (docs/transport.md) and the method keys are checked"
#define N_GWREF "LFRic's gravity_wave reads it only for the reference profile theta_0 of its " \
                "initial buoyancy; gale's gravity_wave case takes b = g dtheta / theta0 with " \
                "a constant [initial] theta0 (docs/numerics.md)"
#define N_PLANAR "planar domains only: gale's (and &base_mesh geometry's) is the sphere"
#define N_PROFILE "a setting of LFRic's other wind profiles; gale's cases take their own " \
                  "(&initial_wind profile is checked)"

/* A group's "*" rows for its keys without their own: without effect in a
 * GungHo namelist (why), not read by LFRic's gravity_wave. */
#define GH_ONLY(group, why) \
    {group, "*", GH, NOEFF, NONE, NULL, NULL, NULL, why}, {group, "*", GW, UNREAD}

/* Every key of gale_lfric_keys[], per namelist kind, in exactly one row: a row
 * of its own, else its group's "*" row (check_table(), run by test_config). */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
const gale_lfric_row_t gale_lfric_map[] = {
    /* &base_mesh: the cubed sphere gale builds itself */
    {"base_mesh", "prime_mesh_name", BOTH, MAPS, MESH, "mesh", "name"},
    {"base_mesh", "filename", BOTH, MAPS, MESH, "mesh", "name"},
    {"base_mesh", "file_prefix", BOTH, MAPS, MESH, "mesh", "name"},
    {"base_mesh", "geometry", BOTH, ONLY, NONE, NULL, NULL, "spherical"},
    {"base_mesh", "topology", BOTH, ONLY, NONE, NULL, NULL, "fully_periodic",
     "gale's mesh is the whole cubed sphere ('fully_periodic'); a regional mesh would need "
     "lateral boundaries"},
    {"base_mesh", "fplane", BOTH, ONLY, NONE, NULL, NULL, ".false.",
     "gale has no f-plane: it runs on the sphere (geometry = 'spherical'), where LFRic's "
     "metadata refuses fplane = .true. too; gale would need planar meshes"},
    {"base_mesh", "f_lat_deg", BOTH, NOEFF, NONE, NULL, NULL, NULL, N_PLANAR},
    {"base_mesh", "*", BOTH, NOEFF, NONE, NULL, NULL, NULL, N_PART},
    {"boundaries", "limited_area", BOTH, ONLY, NONE, NULL, NULL, ".false.",
     "gale is a global model: it would need lateral boundary conditions"},
    {"boundaries", "*", BOTH, NOEFF, NONE, NULL, NULL, NULL, N_LAM},
    {"checks", "limit_cfl", GH, ONLY, NONE, NULL, NULL, ".false.",
     "gale does not cap the wind at a Courant number (LFRic's limit_cfl changes the answers); "
     "its transport takes substeps instead ([dynamics] transport_courant)"},
    GH_ONLY("checks", "used only with limit_cfl = .true."),
    GH_ONLY("damping_layer", "used only with &formulation dlayer_on = .true. (refused)"),
    GH_ONLY("departure_points", N_TRAN),
    {"development", "*", BOTH, NOEFF, NONE, NULL, NULL, NULL,
     "the older mini-app's choice of multigrid code, not of its answers"},
    {"domain_size", "*", BOTH, NOEFF, NONE, NULL, NULL, NULL, N_PLANAR},
    {"energy_correction", "encorr_usage", GH, ONLY, NONE, NULL, NULL, "none diag",
     "gale has no energy correction ('apply' adds a temperature increment that restores the "
     "total energy); 'diag' only diagnoses it"},
    GH_ONLY("energy_correction", "used only with encorr_usage = 'apply' (refused)"),
    GH_ONLY("esm_couple",
            "the coupled (earth-system) model's test switch: GungHo alone couples nothing"),
    {"extrusion", "number_of_layers", BOTH, MAPS, NUM, "extrusion", "levels"},
    {"extrusion", "domain_top", BOTH, MAPS, NUM, "extrusion", "top"},
    {"extrusion", "domain_height", BOTH, MAPS, NUM, "extrusion", "top"},
    {"extrusion", "planet_radius", BOTH, MAPS, NUM, "planet", "radius"},
    {"extrusion", "method", BOTH, MAPS, WORD, "extrusion", "method",
     "uniform quadratic geometric dcmip um_L38_29t_9s_40km um_L70_50t_20s_80km "
     "um_L70_61t_9s_40km um_L85_50t_35s_85km"},
    {"extrusion", "eta_values", BOTH, NOEFF, NONE, NULL, NULL, NULL,
     "used only with method = 'specified_values' (refused)"},
    GH_ONLY("extrusion",
            "how layers stretch over orography: the surface is flat (&orography orog_init_option "
            "= 'none')"),
    {"files", "*", BOTH, NOEFF, NONE, NULL, NULL, NULL, N_IO " (the ancillary files feed LFRic's "
     "physics and orography, both checked off)"},
    {"finite_element", "element_order", BOTH, ONLY, NONE, NULL, NULL, "0",
     "gale is the lowest-order (finite-volume) analogue: it would need LFRic's higher-order "
     "spaces"},
    {"finite_element", "element_order_h", BOTH, ONLY, NONE, NULL, NULL, "0",
     "gale is the lowest-order (finite-volume) analogue: it would need LFRic's higher-order "
     "spaces"},
    {"finite_element", "element_order_v", BOTH, ONLY, NONE, NULL, NULL, "0",
     "gale is the lowest-order (finite-volume) analogue: it would need LFRic's higher-order "
     "spaces"},
    {"finite_element", "cellshape", BOTH, ONLY, NONE, NULL, NULL, "quadrilateral",
     "gale's cubed sphere has quadrilateral cells (LFRic supports no others either)"},
    {"finite_element", "*", BOTH, NOEFF, NONE, NULL, NULL, NULL, N_FE},
    /* &formulation: GungHo's equations; LFRic's gravity_wave reads only
     * l_multigrid. shallow is honoured by both cores (docs/lfric-namelist.md) */
    {"formulation", "l_multigrid", BOTH, MAPS, MGFLAG},
    {"formulation", "shallow", BOTH, MAPS, LOGICAL, "dynamics", "shallow"},
    {"formulation", "vector_invariant", GH, MAPS, LOGICAL, "dynamics", "vector_invariant"},
    {"formulation", "rotating", GH, MAPS, ROTATE, "planet", "omega"},
    {"formulation", "rotating", GW, NOEFF, NONE, NULL, NULL, NULL,
     N_GWREF "; the linear equations have no Coriolis term"},
    {"formulation", "use_physics", GH, ONLY, NONE, NULL, NULL, ".false.",
     "gale has no physics parametrisations: it would need LFRic's physics schemes (the "
     "&section_choice groups)"},
    {"formulation", "use_wavedynamics", GH, ONLY, NONE, NULL, NULL, ".true.",
     "gale always solves the wave dynamics (the semi-implicit solve); .false. would leave "
     "transport and physics alone"},
    {"formulation", "moisture_formulation", GH, ONLY, NONE, NULL, NULL, "dry",
     "gale's atmosphere is dry: it would need moisture species, transported and (unless "
     "'passive') in the dynamics"},
    {"formulation", "dlayer_on", GH, ONLY, NONE, NULL, NULL, ".false.",
     "gale has no damping layer: it would need LFRic's absorbing layer (&damping_layer)"},
    {"formulation", "exner_from_eos", GH, ONLY, NONE, NULL, NULL, ".false.",
     "gale's Pi is prognostic, the equation of state a residual of the solve "
     "(docs/nonlinear.md); .true. diagnoses it from the equation of state after each solve"},
    {"formulation", "use_multires_coupling", GH, ONLY, NONE, NULL, NULL, ".false.",
     "gale runs every part on the one mesh: it would need LFRic's meshes of other resolution"},
    {"formulation", "lagged_orog", GH, NOEFF, NONE, NULL, NULL, NULL, N_OROG},
    {"formulation", "moisture_in_solver", GH, NOEFF, NONE, NULL, NULL, NULL, N_MOIST},
    {"formulation", "solver_moisture_conservation", GH, NOEFF, NONE, NULL, NULL, NULL, N_MOIST},
    {"formulation", "theta_moist_source", GH, NOEFF, NONE, NULL, NULL, NULL, N_MOIST},
    {"formulation", "horizontal_physics_predictor", GH, NOEFF, NONE, NULL, NULL, NULL, N_PHYS},
    {"formulation", "dry_static_adjust", GH, NOEFF, NONE, NULL, NULL, NULL,
     "sorts the reference profile of LFRic's linear solver, not the state: the solve's answers "
     "move only within its tolerance, and gale's reference state is its own "
     "([timestepping] reference_state)"},
    GH_ONLY("formulation",
            "a choice within LFRic's finite-element discretisation of the same equations (how the "
            "equation of state, the initial Pi and the projections are discretised, which terms "
            "its linear solver and wind predictors keep); gale's discretisation is its own "
            "(docs/nonlinear.md)"),
    {"gravity_wave_constants", "speed_of_sound", GW, MAPS, NUM, "physics", "speed_of_sound"},
    {"gravity_wave_constants", "b_space", GW, ONLY, NONE, NULL, NULL, "wtheta",
     "gale's buoyancy lives on the layer interfaces (Charney-Phillips), LFRic's Wtheta: it "
     "would need b in the cells ('w3') or at the vertices ('w0')"},
    {"gravity_wave_constants", "*", GH, UNREAD},
    {"helmholtz_solver", "method", BOTH, MAPS, WORD, "solver", "method",
     "cg bicgstab gcr prec_only"},
    {"helmholtz_solver", "preconditioner", BOTH, MAPS, WORD, "solver", "preconditioner",
     "none diagonal tridiagonal multigrid"},
    {"helmholtz_solver", "si_pressure_tolerance", BOTH, MAPS, NUM, "solver", "tolerance"},
    {"helmholtz_solver", "si_pressure_a_tol", GH, MAPS, NUM, "solver", "abs_tolerance"},
    {"helmholtz_solver", "si_pressure_a_tol", GW, UNREAD}, /* its solvers take 1e-12 */
    {"helmholtz_solver", "si_pressure_maximum_iterations", BOTH, MAPS, NUM, "solver",
     "max_iterations"},
    {"helmholtz_solver", "gcrk", BOTH, MAPS, NUM, "solver", "gcr_restart"},
    {"helmholtz_solver", "fail_on_non_converged", BOTH, MAPS, LOGICAL, "solver",
     "fail_on_non_converged"},
    {"helmholtz_solver", "monitor_convergence", BOTH, MAPS, LOGICAL, "solver",
     "monitor_convergence"},
    {"helmholtz_solver", "*", BOTH, NOEFF, NONE, NULL, NULL, NULL, N_SOLVE},
    GH_ONLY("iau",
            "the incremental analysis update's settings, used only with &section_choice iau = "
            ".true. (refused)"),
    GH_ONLY("iau_addinf_io",
            "files of the incremental analysis update, used only with &section_choice iau = "
            ".true. (refused)"),
    GH_ONLY("iau_ainc_io",
            "files of the incremental analysis update, used only with &section_choice iau = "
            ".true. (refused)"),
    GH_ONLY("iau_bcorr_io",
            "files of the incremental analysis update, used only with &section_choice iau = "
            ".true. (refused)"),
    /* &idealised test: the linear core always runs its gravity wave (LFRic's
     * gravity_wave reads no test); GungHo's by name */
    {"idealised", "test", GH, MAPS, GH_CASE, "initial", "case",
     "deep_baroclinic_wave=baroclinic_wave gravity_wave=dcmip31 isot_atm=resting"},
    {"idealised", "perturb_init", GH, ONLY, NONE, NULL, NULL, ".false.",
     "gale's cases start from their analytic state: it would need LFRic's random "
     "perturbation of it"},
    GH_ONLY("idealised", "used only with perturb_init = .true. (refused) or on planar domains"),
    GH_ONLY("initial_density",
            "the density of LFRic's transport-only tests; gale's cases set their own"),
    {"initial_pressure", "method", GH, ONLY, NONE, NULL, NULL, "balanced",
     "gale's cases start with Pi in discrete hydrostatic balance (docs/nonlinear.md): it "
     "would need Pi sampled or projected from the analytic state"},
    {"initial_pressure", "surface_pressure", GH, ONLY, NONE, NULL, NULL, "100000.0",
     "gale's dcmip31 has DCMIP 3-1's 1000 hPa at the equator (the other cases take "
     "&planet p_zero): another value would need a gale key"},
    {"initial_pressure", "surface_pressure", GW, NOEFF, NONE, NULL, NULL, NULL, N_GWREF},
    {"initial_pressure", "*", GW, UNREAD},
    {"initial_temperature", "bvf_square", BOTH, MAPS, NUM, "physics", "bvf_square"},
    {"initial_temperature", "pert_centre", BOTH, MAPS, NUM, "initial", "centre_lon"},
    {"initial_temperature", "pert_width_scaling", BOTH, MAPS, WIDTH, "initial", "half_width"},
    {"initial_temperature", "theta_surf", GH, MAPS, NUM, "initial", "theta0"},
    {"initial_temperature", "theta_surf", GW, NOEFF, NONE, NULL, NULL, NULL, N_GWREF},
    {"initial_temperature", "perturb", GH, ONLY, NONE, NULL, NULL, "none",
     "gale's cases start from their analytic state: it would need LFRic's random noise"},
    GH_ONLY("initial_temperature",
            "used only with perturb = 'random' (refused) or by LFRic's tests with a theta profile"),
    GH_ONLY("initial_vapour", N_MOIST),
    {"initial_wind", "profile", BOTH, ONLY, WIND, NULL, NULL, NULL,
     "the case's own: 'none' or 'zero' (gravity wave, isot_atm), 'solid_body_rotation' "
     "(GungHo's gravity_wave), 'deep_baroclinic_perturbed' (deep_baroclinic_wave): gale's "
     "cases set their own wind"},
    {"initial_wind", "u0", GH, MAPS, NUM, "initial", "u0"},
    {"initial_wind", "u0", GW, NOEFF, NONE, NULL, NULL, NULL, N_GWREF},
    {"initial_wind", "sbr_angle_lat", GH, ONLY, NONE, NULL, NULL, "0.0",
     "gale's dcmip31 wind rotates about the polar axis: a tilted one would need a gale key"},
    {"initial_wind", "sbr_angle_lon", GH, ONLY, NONE, NULL, NULL, "0.0",
     "gale's dcmip31 wind rotates about the polar axis: a tilted one would need a gale key"},
    {"initial_wind", "*", BOTH, NOEFF, NONE, NULL, NULL, NULL, N_PROFILE},
    {"initialization", "init_option", GH, ONLY, NONE, NULL, NULL, "analytic",
     "gale's cases start from their analytic state: it would need LFRic's start dumps and "
     "checkpoints"},
    {"initialization", "ls_option", GH, ONLY, NONE, NULL, NULL, "none",
     "gale reads no large-scale (driving model) fields"},
    {"initialization", "lbc_option", GH, NOEFF, NONE, NULL, NULL, NULL, N_LAM},
    {"initialization", "n_orog_smooth", GH, NOEFF, NONE, NULL, NULL, NULL, N_OROG},
    {"initialization", "w0_orography_mapping", GH, NOEFF, NONE, NULL, NULL, NULL, N_OROG},
    {"initialization", "zero_w2v_wind", GH, NOEFF, NONE, NULL, NULL, NULL,
     "gale's cases start with w = 0, what .true. makes"},
    GH_ONLY("initialization", N_DUMP),
    {"io", "checkpoint_read", BOTH, ONLY, NONE, NULL, NULL, ".false.",
     "gale starts from its case's analytic state; its own checkpoints restart with `gale run "
     "--restart` (docs/checkpoint.md), LFRic's it cannot read"},
    {"io", "*", BOTH, NOEFF, NONE, NULL, NULL, NULL, N_IO},
    {"logging", "run_log_level", BOTH, MAPS, WORD, "logging", "level",
     "error warning=warn info debug trace=debug"},
    {"logging", "*", BOTH, NOEFF, NONE, NULL, NULL, NULL, N_IO},
    /* &mixed_solver: the mixed (u, w, b, p) solve of [dynamics] mass_matrix =
     * consistent, which an LFRic namelist always gets (gale_config_read_nml_).
     * LFRic's gmres: restarted GMRES and GCR minimise the same residual over
     * the same Krylov space, so the same iterates in exact arithmetic. */
    {"mixed_solver", "si_method", BOTH, MAPS, WORD, "mixed_solver", "method",
     "gcr prec_only gmres=gcr block_gcr=gcr"},
    {"mixed_solver", "si_tolerance", BOTH, MAPS, NUM, "mixed_solver", "tolerance"},
    {"mixed_solver", "mixed_solver_a_tol", GH, MAPS, NUM, "mixed_solver", "abs_tolerance"},
    {"mixed_solver", "mixed_solver_a_tol", GW, UNREAD}, /* its solvers take 1e-12 */
    {"mixed_solver", "si_maximum_iterations", BOTH, MAPS, NUM, "mixed_solver", "max_iterations"},
    {"mixed_solver", "gcrk", BOTH, MAPS, NUM, "mixed_solver", "gcrk"},
    {"mixed_solver", "fail_on_non_converged", BOTH, MAPS, LOGICAL, "mixed_solver",
     "fail_on_non_converged"},
    {"mixed_solver", "monitor_convergence", BOTH, MAPS, LOGICAL, "mixed_solver",
     "monitor_convergence"},
    {"mixed_solver", "reference_reset_time", GH, MAPS, NUM, "timestepping",
     "reference_reset_time"},
    {"mixed_solver", "si_preconditioner", BOTH, ONLY, NONE, NULL, NULL, "pressure",
     "only 'pressure' is implemented (gale's approximate Schur complement: the Helmholtz "
     "problem of [solver] for the pressure, u, w and b recovered from it)"},
    {"mixed_solver", "eliminate_variables", GH, ONLY, NONE, NULL, NULL, "discrete",
     "only 'discrete' is implemented (gale eliminates u, w and b discretely, from the "
     "discretised equations)"},
    GH_ONLY("mixed_solver", N_SOLVE),
    {"mixing", "viscosity", GH, ONLY, NONE, NULL, NULL, ".false.",
     "gale has no viscosity: it would need LFRic's constant-viscosity diffusion of theta "
     "and the wind (viscosity_mu)"},
    {"mixing", "smagorinsky", GH, ONLY, NONE, NULL, NULL, ".false.",
     "gale has no turbulence scheme: it would need LFRic's Smagorinsky mixing of theta, "
     "moisture and the wind"},
    {"mixing", "leonard_term", GH, NOEFF, NONE, NULL, NULL, NULL,
     "LFRic computes the Leonard terms in its slow physics, which runs only with "
     "&formulation use_physics = .true. (refused)"},
    GH_ONLY("mixing",
            "used only with viscosity, smagorinsky or leonard_term = .true. (refused or without "
            "effect)"),
    {"multigrid", "multigrid_chain_nitems", BOTH, MAPS, CHAIN, "multigrid", "levels"},
    {"multigrid", "chain_mesh_tags", BOTH, MAPS, CHAIN, "multigrid", "levels"},
    {"multigrid", "smooth_relaxation", BOTH, MAPS, NUM, "multigrid", "smooth_relaxation"},
    {"multigrid", "n_presmooth", BOTH, MAPS, NUM, "multigrid", "n_presmooth"},
    {"multigrid", "n_postsmooth", BOTH, MAPS, NUM, "multigrid", "n_postsmooth"},
    {"multigrid", "n_coarsesmooth", BOTH, MAPS, NUM, "multigrid", "n_coarsesmooth"},
    {"multigrid", "l_multigrid", BOTH, MAPS, MGFLAG}, /* the older layout's place */
    {"multigrid", "*", BOTH, NOEFF, NONE, NULL, NULL, NULL,
     "the coarse meshes' files and tiling: gale builds the chain itself"},
    GH_ONLY("multires_coupling",
            "used only with &formulation use_multires_coupling = .true. (refused)"),
    GH_ONLY("nudging", N_PHYS),
    GH_ONLY("orbit", "the sun's position, for " N_PHYS),
    {"orography", "orog_init_option", GH, ONLY, NONE, NULL, NULL, "none",
     "gale's surface is flat: it would need LFRic's terrain-following layers over analytic "
     "or ancillary orography"},
    GH_ONLY("orography", N_OROG),
    GH_ONLY("orography_agnesi_cartesian", N_OROG),
    GH_ONLY("orography_agnesi_spherical", N_OROG),
    GH_ONLY("orography_bell_cartesian", N_OROG),
    GH_ONLY("orography_bell_spherical", N_OROG),
    GH_ONLY("orography_dcmip200_spherical", N_OROG),
    GH_ONLY("orography_schar_cartesian", N_OROG),
    GH_ONLY("orography_schar_spherical", N_OROG),
    {"partitioning", "*", BOTH, NOEFF, NONE, NULL, NULL, NULL, N_PART},
    GH_ONLY("physics", N_PHYS),
    {"planet", "radius", BOTH, MAPS, NUM, "planet", "radius"},
    {"planet", "scaling_factor", BOTH, MAPS, NUM, "planet", "scaling"},
    {"planet", "gravity", BOTH, MAPS, NUM, "planet", "gravity"},
    {"planet", "omega", GH, MAPS, NUM, "planet", "omega"},
    {"planet", "cp", GH, MAPS, NUM, "planet", "cp"},
    {"planet", "rd", GH, MAPS, NUM, "planet", "rd"},
    {"planet", "p_zero", GH, MAPS, NUM, "planet", "p_zero"},
    {"planet", "*", GW, NOEFF, NONE, NULL, NULL, NULL, N_GWREF},
    {"section_choice", "dynamics", BOTH, MAPS, CORE, "dynamics", "equations"},
    {"section_choice", "iau", GH, ONLY, NONE, NULL, NULL, ".false.",
     "gale has no data assimilation: it would need LFRic's incremental analysis update"},
    {"section_choice", "iau_surf", GH, ONLY, NONE, NULL, NULL, ".false.",
     "gale has no data assimilation: it would need LFRic's incremental analysis update"},
    {"section_choice", "iau_sst", GH, ONLY, NONE, NULL, NULL, ".false.",
     "gale has no data assimilation: it would need LFRic's incremental analysis update"},
    GH_ONLY("section_choice", "which scheme of " N_PHYS),
    {"solver", "*", BOTH, NOEFF, NONE, NULL, NULL, NULL,
     "LFRic's solver of its finite-element mass matrices; gale's are inverted exactly or "
     "lumped (docs/numerics.md)"},
    {"time", "timestep_start", BOTH, MAPS, STEP, "timestepping", "steps"},
    {"time", "timestep_end", BOTH, MAPS, STEP, "timestepping", "steps"},
    {"time", "*", BOTH, NOEFF, NONE, NULL, NULL, NULL,
     "the calendar: gale's cases do not depend on the date"},
    {"timestepping", "dt", BOTH, MAPS, NUM, "timestepping", "dt"},
    {"timestepping", "alpha", BOTH, MAPS, NUM, "timestepping", "alpha"},
    {"timestepping", "outer_iterations", GH, MAPS, NUM, "timestepping", "outer_iterations"},
    {"timestepping", "inner_iterations", GH, MAPS, NUM, "timestepping", "inner_iterations"},
    {"timestepping", "method", GH, ONLY, NONE, NULL, NULL, "semi_implicit",
     "gale's only time scheme is the iterated semi-implicit one"},
    {"timestepping", "spinup_alpha", GH, ONLY, NONE, NULL, NULL, ".false.",
     "gale keeps alpha fixed: it would need LFRic's spin-up of the off-centring"},
    {"timestepping", "runge_kutta_method", GH, NOEFF, NONE, NULL, NULL, NULL,
     "used only with method = 'rk' (refused); &transport runge_kutta_method is the "
     "transport's"},
    GH_ONLY("timestepping",
            "the relaxation weights of LFRic's linear operator (not of the residual: the solve's "
            "answers move only within its tolerance) and its spin-up (with spinup_alpha, refused)"),
    /* &transport: each field's form is honoured (or refused); the method keys
     * honour gale's method of lines and stand-in the others only on request */
    {"transport", "equation_form", GH, ONLY, FORMS, NULL, NULL, NULL,
     "field by field (field_names): 'density' 1 (conservative); 'potential_temperature' and, "
     "in the advective form, 'wind' 2 (advective) or 3 (consistent); other fields any"},
    {"transport", "field_names", GH, ONLY, FORMS, NULL, NULL, NULL,
     "the fields of equation_form, one per value"},
    {"transport", "cfl_mol_2d_stab", GH, MAPS, NUM, "dynamics", "transport_courant"},
    {"transport", "theta_variable", GH, ONLY, NONE, NULL, NULL, "dry",
     "gale's atmosphere is dry: it transports the dry potential temperature ('dry')"},
    {"transport", "adjust_theta", GH, ONLY, NONE, NULL, NULL, ".false.",
     "gale does not sort theta after its transport: it would need LFRic's dry static "
     "adjustment"},
    {"transport", "consistent_metric", GH, ONLY, NONE, NULL, NULL, ".false.",
     "LFRic allows .true. on planar meshes only; gale's is the sphere"},
    {"transport", "scheme", GH, STANDIN, NONE, NULL, NULL, "1|2 3",
     "the method of lines in 3-D"},
    {"transport", "splitting", GH, STANDIN, NONE, NULL, NULL, "1|2 3 4 5 6 7 8",
     "none: gale's transport is unsplit"},
    {"transport", "horizontal_method", GH, STANDIN, NONE, NULL, NULL, "1|0 2 3",
     "the method of lines"},
    {"transport", "vertical_method", GH, STANDIN, NONE, NULL, NULL, "1|0 2 3",
     "the method of lines"},
    {"transport", "operators", GH, STANDIN, NONE, NULL, NULL, "fv|fem",
     "finite-volume reconstructions"},
    {"transport", "runge_kutta_method", GH, STANDIN, NONE, NULL, NULL,
     "ssp3|forward_euler ssp2 ssp4 ssp5", "SSP-RK3 (Shu & Osher)"},
    {"transport", "fv_horizontal_order", GH, STANDIN, NONE, NULL, NULL, "2|*",
     "gale's horizontal reconstruction is quadratic"},
    {"transport", "fv_vertical_order", GH, STANDIN, NONE, NULL, NULL, "2|*",
     "gale's vertical reconstruction is second order, LFRic's lowest"},
    {"transport", "oned_reconstruction", GH, STANDIN, NONE, NULL, NULL, ".false.|.true.",
     "gale fits a 2-D polynomial over the vertex neighbours"},
    {"transport", "panel_edge_treatment", GH, STANDIN, NONE, NULL, NULL,
     "remapping|none extended_mesh special_edges",
     "gale's fit takes the neighbours across panel edges in each cell's tangent plane "
     "(docs/transport.md)"},
    {"transport", "reversible", GH, STANDIN, NONE, NULL, NULL, ".false.|.true.",
     "gale's vertical reconstruction is not LFRic's Hermite one"},
    {"transport", "cheap_update", GH, STANDIN, NONE, NULL, NULL, ".false.|.true.",
     "gale advects with the time-centred wind in every outer iteration"},
    {"transport", "si_outer_transport", GH, STANDIN, NONE, NULL, NULL,
     "none|advective no_mono horizontal_sl", "every outer iteration transports alike"},
    {"transport", "substep_transport", GH, STANDIN, NONE, NULL, NULL, "off|adaptive two four",
     "gale substeps by cfl_mol_2d_stab, the method of lines' way"},
    {"transport", "use_density_predictor", GH, STANDIN, NONE, NULL, NULL, ".false.|.true.",
     "gale has no density predictor"},
    GH_ONLY("transport", N_TRAN),
    /* the physics schemes' groups, and external forcing */
    GH_ONLY("aerosol", N_PHYS),
    GH_ONLY("blayer", N_PHYS),
    GH_ONLY("chemistry", N_PHYS),
    GH_ONLY("cloud", N_PHYS),
    GH_ONLY("convection", N_PHYS),
    GH_ONLY("cosp", N_PHYS),
    GH_ONLY("external_forcing", N_PHYS),
    GH_ONLY("geostrophic_forcing", N_PHYS),
    GH_ONLY("ideal_surface", N_PHYS),
    GH_ONLY("microphysics", N_PHYS),
    GH_ONLY("orographic_drag", N_PHYS),
    GH_ONLY("radiation", N_PHYS),
    GH_ONLY("radiative_gases", N_PHYS),
    GH_ONLY("specified_surface", N_PHYS),
    GH_ONLY("spectral_gwd", N_PHYS),
    GH_ONLY("star", "the sun, for " N_PHYS),
    GH_ONLY("stochastic_physics", N_PHYS),
    GH_ONLY("surface", N_PHYS),
    GH_ONLY("temp_tend_data", N_PHYS),
    GH_ONLY("theta_relax", N_PHYS),
    GH_ONLY("vapour_forcing", N_PHYS),
    GH_ONLY("vertadvect", N_PHYS),
    GH_ONLY("wind_forcing", N_PHYS),
};
#pragma GCC diagnostic pop
enum { NMAP = sizeof gale_lfric_map / sizeof gale_lfric_map[0] };
const int gale_lfric_nmap = NMAP;

/* The words of a space-separated list, in buf. */
int gale_lfric_words_(const char *list, char *buf, size_t n, const char **out)
{
    snprintf(buf, n, "%s", list);
    char *save;
    int nw = 0;
    for (char *p = strtok_r(buf, " ", &save); p && nw < MAXW; p = strtok_r(NULL, " ", &save))
        out[nw++] = p;
    return nw;
}

int gale_lfric_find_group_(const char *group)
{
    for (int g = 0; g < NGROUPS; g++)
        if (strcmp(gale_lfric_keys[g].group, group) == 0) return g;
    return -1;
}

/* The row of &group key in a namelist of kind in (GW or GH): its own, else
 * its group's "*" row; -1 if none (check_table finds none missing). */
int gale_lfric_find_map_(const char *group, const char *key, int in)
{
    int any = -1;
    for (int m = 0; m < NMAP; m++) {
        if (!(gale_lfric_map[m].in & in) || strcmp(gale_lfric_map[m].group, group) != 0) continue;
        if (strcmp(gale_lfric_map[m].key, key) == 0) return m;
        if (strcmp(gale_lfric_map[m].key, "*") == 0) any = m;
    }
    return any;
}

int gale_lfric_known_key_(int g, const char *key)
{
    char buf[2048];
    const char *w[MAXW];
    int nw = gale_lfric_words_(gale_lfric_keys[g].keys, buf, sizeof buf, w);
    for (int i = 0; i < nw; i++)
        if (strcmp(w[i], key) == 0) return 1;
    size_t n = strlen(key), s = strlen("_ancil_path");
    return strcmp(gale_lfric_keys[g].group, "files") == 0 && n > s &&
           strcmp(key + n - s, "_ancil_path") == 0;
}

/* ---------------- the table's own rules ---------------- */

/* The row of every key of gale_lfric_keys[] for kind in, or -1 (expanding "*"). */
int gale_lfric_row_of_(int g, const char *key, int in)
{
    return gale_lfric_find_map_(gale_lfric_keys[g].group, key, in);
}

int gale_config_nml_check_(char *why, size_t n, int count[2][5])
{
    char buf[4096];
    const char *w[512];
    why[0] = '\0';
    memset(count, 0, 2 * 5 * sizeof count[0][0]);
    for (int m = 0; m < NMAP; m++) {
        const int g = gale_lfric_find_group_(gale_lfric_map[m].group), cat = gale_lfric_map[m].cat;
        const char *key = gale_lfric_map[m].key, *sec = gale_lfric_map[m].section;
        if (g < 0 || (strcmp(key, "*") != 0 && !gale_lfric_known_key_(g, key)))
            return snprintf(why, n, "row &%s %s: not a key of lfric_keys[]", gale_lfric_map[m].group,
                            key), -1;
        for (int k = 0; k < m; k++) /* one row per key and kind */
            if (strcmp(gale_lfric_map[k].group, gale_lfric_map[m].group) == 0 &&
                strcmp(gale_lfric_map[k].key, key) == 0 && (gale_lfric_map[k].in & gale_lfric_map[m].in))
                return snprintf(why, n, "&%s %s: two rows for one kind", gale_lfric_map[m].group,
                                key), -1;
        if ((cat == NOEFF && !gale_lfric_map[m].note) ||
            (cat == ONLY && gale_lfric_map[m].kind == NONE && !gale_lfric_map[m].values) ||
            (cat == STANDIN && (!gale_lfric_map[m].values || !strchr(gale_lfric_map[m].values, '|') ||
                                !gale_lfric_map[m].note)) ||
            (cat == MAPS && sec && gale_config_key_index_(sec, gale_lfric_map[m].gkey) < 0))
            return snprintf(why, n, "&%s %s: its row lacks what its category needs",
                            gale_lfric_map[m].group, key), -1;
    }
    for (int g = 0; g < NGROUPS; g++) {
        int nw = gale_lfric_words_(gale_lfric_keys[g].keys, buf, sizeof buf, w);
        for (int i = 0; i < nw; i++)
            for (int in = GW; in <= GH; in++) {
                const int m = gale_lfric_row_of_(g, w[i], in);
                if (m < 0)
                    return snprintf(why, n, "&%s %s: no row for a %s namelist",
                                    gale_lfric_keys[g].group, w[i],
                                    in == GW ? "gravity_wave" : "GungHo"), -1;
                count[in - 1][gale_lfric_map[m].cat]++;
            }
    }
    return 0;
}

