/* LFRic gravity_wave and GungHo namelists (configuration.nml) as a gale
 * configuration.
 * Fortran namelist syntax: groups "&name key = value, ... /", values quoted
 * ('C16' or "C16"), logical (.true./.false./T/F), numeric (1.0d-4), lists and
 * repeat counts (3*0.0), comments from '!'. The file is read twice: first for
 * its kind (&section_choice dynamics = 'gungho': GungHo's, else a
 * gravity_wave namelist), then every key as its row of lfric_map[] for that
 * kind says: converted to a gale key through the INI parser's own
 * validation, honoured when its value is what gale computes and refused
 * otherwise, or without effect (logged once); anything that is not an LFRic
 * key is an error. docs/lfric-namelist.md has the table and the reasons. */
#include "gale_base.h"
#include "gale_config.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Every group and key that LFRic's GungHo and gravity_wave rose metadata
 * define (lfric_apps science/gungho, applications/gravity_wave and what they
 * import: lfric_core's driver, the physics schemes' groups), and the older
 * lfric_core mini-app's: the keys an LFRic user may legitimately bring.
 * &files also takes any <field>_ancil_path. */
static const struct { const char *group, *keys; } lfric_keys[] = {
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
enum { NGROUPS = sizeof lfric_keys / sizeof lfric_keys[0] };

/* How an LFRic value becomes a gale one (lfric_map rows whose cat is MAPS). */
enum {
    NONE,    /* no conversion: the row's category says what happens */
    NUM,     /* number: d/D exponent -> e */
    LOGICAL, /* .true./.false./T/F -> true/false */
    WORD,    /* a word translated by the "lfric=gale" list (a bare word maps to itself) */
    MESH,    /* prime_mesh_name or filename holding C<N>: resolved at the end */
    STEP,    /* timestep_start/timestep_end: steps = end - start + 1, at the end */
    CHAIN,   /* multigrid_chain_nitems, chain_mesh_tags (a list): [multigrid] levels, at the end */
    MGFLAG,  /* l_multigrid: whether the multigrid chain exists, checked at the end */
    WIDTH,   /* &initial_temperature pert_width_scaling: [initial] half_width, at the end */
    /* held until the whole file is read (resolve_gungho) */
    CORE,    /* &section_choice dynamics: 'gungho' makes the namelist GungHo's */
    GH_CASE, /* &idealised test: the case, by the "lfric=gale" list */
    ROTATE,  /* &formulation rotating: .false. sets [planet] omega = 0 */
    WIND,    /* &initial_wind profile: must be the wind of the case, checked at the end */
    FORMS    /* &transport equation_form, field_names: each field's form, checked at the end */
};

/* What a key does to the run, per namelist kind (gale's rule: &section_choice
 * dynamics = 'gungho' is a GungHo namelist, the nonlinear core; any other a
 * gravity_wave one, the linear core). docs/lfric-namelist.md, "Every key",
 * is this table, printed by `gale help namelist --markdown`. */
enum {
    UNREAD,  /* LFRic's app of that kind never reads it: no effect, logged */
    NOEFF,   /* without effect on the answers (note: why): logged */
    MAPS,    /* converted to gale's [section] gkey (kind: how) */
    ONLY,    /* values: what gale computes, honoured; any other refused, note: what
              * gale would need */
    STANDIN  /* a &transport method: values "gale's|LFRic's others" ('*': any);
              * gale's honoured, any other refused unless [dynamics]
              * transport_stand_in lets gale's method of lines stand in */
};
enum { GW = 1, GH = 2, BOTH = 3 }; /* the namelist kinds a row is for */

/* Reasons shared by many keys (the docs' table prints them per row). */
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

/* Every key of lfric_keys[], per namelist kind, in exactly one row: a row
 * of its own, else its group's "*" row (check_table(), run by test_config). */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
static const struct {
    const char *group, *key;
    int in, cat, kind;
    const char *section, *gkey, *values, *note;
} lfric_map[] = {
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
enum { NMAP = sizeof lfric_map / sizeof lfric_map[0] };

enum { NAME = 64, MAXW = 64 };
/* Values kept of one assignment: a multigrid chain has at most 16 meshes
 * ([multigrid] levels), so one more tells a chain that is too long. */
enum { MAXV = 17 };
/* keys held for the end (lfric_map kinds CORE, GH_CASE, ROTATE): one each */
enum { NHELD = 16 };

/* The words of a space-separated list, in buf. */
static int words(const char *list, char *buf, size_t n, const char **out)
{
    snprintf(buf, n, "%s", list);
    char *save;
    int nw = 0;
    for (char *p = strtok_r(buf, " ", &save); p && nw < MAXW; p = strtok_r(NULL, " ", &save))
        out[nw++] = p;
    return nw;
}

static int find_group(const char *group)
{
    for (int g = 0; g < NGROUPS; g++)
        if (strcmp(lfric_keys[g].group, group) == 0) return g;
    return -1;
}

/* The row of &group key in a namelist of kind in (GW or GH): its own, else
 * its group's "*" row; -1 if none (check_table finds none missing). */
static int find_map(const char *group, const char *key, int in)
{
    int any = -1;
    for (int m = 0; m < NMAP; m++) {
        if (!(lfric_map[m].in & in) || strcmp(lfric_map[m].group, group) != 0) continue;
        if (strcmp(lfric_map[m].key, key) == 0) return m;
        if (strcmp(lfric_map[m].key, "*") == 0) any = m;
    }
    return any;
}

/* ---------------- the namelist reader ---------------- */

typedef struct {
    const char *path, *p; /* file name, read position */
    int line;
    gale_config_t *cfg;
    FILE *unused;         /* "group.key, ..." of LFRic keys gale does not use */
    int nunused;
    struct held { char val[GALE_STR]; int line; } prime, file, prefix, start, end, nitems, pc,
        wind, width;
    struct { char v[MAXV][NAME]; int n, line; } forms, names; /* equation_form, field_names */
    char *seen; /* " key key ... " of the current group: no fixed limit on keys */
    size_t nseen, capseen;
    struct { char tag[MAXV][NAME], text[GALE_STR]; long n; int line; } chain; /* chain_mesh_tags */
    struct { const char *group; int line, on; } mg; /* l_multigrid: a .false. one wins */
    struct { int m, line; char val[GALE_STR]; } held[NHELD]; /* GungHo's keys, in file order */
    int nheld, gungho; /* gungho: the line of &section_choice dynamics = 'gungho', or 0 */
    int first;         /* the first pass, which only finds the kind (r->gungho) */
    int stand_m;       /* the row of cfg->stand_in.first */
} nml_t;

/* The rest of the current line, at most 20 characters, for messages. */
static int shown(const char *p)
{
    size_t n = strcspn(p, "\r\n");
    return n < 20 ? (int)n : 20;
}

/* Lists &group key among the keys the run does not use (logged at the end). */
static void not_used(nml_t *r, const char *group, const char *key)
{
    fprintf(r->unused, "%s%s.%s", r->nunused++ ? ", " : "", group, key);
}

/* Skips blanks, newlines, comments and, with commas != 0, value separators. */
static void skip(nml_t *r, int commas)
{
    for (;;) {
        char c = *r->p;
        if (c == '\n') r->line++, r->p++;
        else if (c == ' ' || c == '\t' || c == '\r' || (commas && c == ',')) r->p++;
        else if (c == '!') r->p += strcspn(r->p, "\n");
        else return;
    }
}

/* A Fortran name, lower-cased (names are case-insensitive); 0 if none. */
static size_t read_name(nml_t *r, char *out)
{
    size_t n = 0;
    if (!isalpha((unsigned char)*r->p)) return 0;
    while ((isalnum((unsigned char)*r->p) || *r->p == '_') && n + 1 < NAME)
        out[n++] = (char)tolower((unsigned char)*r->p++);
    out[n] = '\0';
    return n;
}

/* Whether a "name =" follows: the start of the next assignment, not a value. */
static int at_assignment(nml_t *r)
{
    const char *p = r->p;
    int line = r->line, yes = 0;
    char name[NAME];
    if (read_name(r, name)) {
        skip(r, 0);
        yes = *r->p == '=';
    }
    r->p = p, r->line = line;
    return yes;
}

/* One value: a quoted string ('' or "" inside stands for the quote) or a
 * bare token. Returns -1 with why set on a malformed value. */
static int read_value(nml_t *r, char *out, char *why, size_t nwhy)
{
    size_t n = 0;
    char q = *r->p;
    if (q == '\'' || q == '"') {
        for (r->p++;; r->p++) {
            if (!*r->p || *r->p == '\n') {
                snprintf(why, nwhy, "unterminated string (missing %c)", q);
                return -1;
            }
            if (*r->p == q && r->p[1] != q) break;
            if (*r->p == q) r->p++;
            if (n + 1 == GALE_STR) {
                snprintf(why, nwhy, "value longer than %d characters", GALE_STR - 1);
                return -1;
            }
            out[n++] = *r->p;
        }
        r->p++;
    } else {
        size_t len = strcspn(r->p, " \t\r\n,/!&");
        if (len + 1 > GALE_STR) {
            snprintf(why, nwhy, "value longer than %d characters", GALE_STR - 1);
            return -1;
        }
        memcpy(out, r->p, len);
        n = len;
        r->p += len;
    }
    out[n] = '\0';
    return 0;
}

static int known_key(int g, const char *key)
{
    char buf[2048];
    const char *w[MAXW];
    int nw = words(lfric_keys[g].keys, buf, sizeof buf, w);
    for (int i = 0; i < nw; i++)
        if (strcmp(w[i], key) == 0) return 1;
    size_t n = strlen(key), s = strlen("_ancil_path");
    return strcmp(lfric_keys[g].group, "files") == 0 && n > s &&
           strcmp(key + n - s, "_ancil_path") == 0;
}

/* A logical value as 1 or 0; -1 if it is none. */
static int logical(const char *val)
{
    const char *t = val + (val[0] == '.');
    int c = tolower((unsigned char)*t);
    return c == 't' ? 1 : c == 'f' ? 0 : -1;
}

/* Whether s is a Fortran real or integer literal: sign, digits with at most
 * one '.', an e or d exponent. strtod would also take hexadecimal (0x1p3),
 * inf and nan, which Fortran namelist input has not. */
static int fortran_number(const char *s)
{
    size_t d = 0, e;
    s += *s == '+' || *s == '-';
    d = strspn(s, "0123456789"), s += d;
    if (*s == '.') s++, e = strspn(s, "0123456789"), d += e, s += e;
    if (!d) return 0;
    if (*s && strchr("eEdD", *s)) {
        s++;
        s += *s == '+' || *s == '-';
        if (!(e = strspn(s, "0123456789"))) return 0;
        s += e;
    }
    return !*s;
}

/* A value without its repeat count (3*'x' -> x) and quotes, in out. */
static void unrepeat(const char *v, char *out, size_t n)
{
    size_t d = strspn(v, "0123456789");
    if (d && v[d] == '*') v += d + 1;
    size_t len = strlen(v);
    if (len >= 2 && (v[0] == '\'' || v[0] == '"') && v[len - 1] == v[0]) v++, len -= 2;
    snprintf(out, n, "%.*s", (int)len, v);
}

/* A value as a logical strictly (.true., .t..., T, true; the same for
 * false): 1, 0, or -1 for any other word ('fv' is not .false.). */
static int strict_logical(const char *v)
{
    if (v[0] == '.' && strchr("tTfF", v[1]) && v[1]) return logical(v);
    if (!strcasecmp(v, "t") || !strcasecmp(v, "true")) return 1;
    if (!strcasecmp(v, "f") || !strcasecmp(v, "false")) return 0;
    return -1;
}

/* A value as written in a namelist, for messages: quoted unless a number or
 * a logical. */
static void written(const char *val, char *out, size_t n)
{
    const int bare = fortran_number(val) || strict_logical(val) >= 0;
    snprintf(out, n, "%s%s%s", bare ? "" : "'", val, bare ? "" : "'");
}

/* Sets a gale key from converted text, and where it came from
 * (gale_config_origin); the message names both sides. */
static int set(nml_t *r, int line, const char *group, const char *key, const char *val,
               const char *section, const char *gkey, const char *text)
{
    char why[1024], w[GALE_STR + 2], from[GALE_ORIGIN];
    if (gale_config_set_(r->cfg, section, gkey, text, why, sizeof why))
        GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &%s %s = '%s' (gale [%s] %s = %s): %s", r->path, line,
                   group, key, val, section, gkey, text, why);
    written(val, w, sizeof w);
    snprintf(from, sizeof from, "&%s %s = %.*s", group, key, GALE_ORIGIN / 2, w);
    gale_config_from_nml_(r->cfg, section, gkey, line, from);
    return GALE_OK;
}

/* A list of one value per field (repeat counts r*c expanded), at most MAXV. */
static int hold_list(nml_t *r, int line, const char *group, const char *key,
                     const char (*vals)[GALE_STR], int nval, char (*out)[NAME], int *n)
{
    *n = 0;
    for (int i = 0; i < nval && i < MAXV; i++) {
        long times = 1;
        size_t d = strspn(vals[i], "0123456789");
        if (d && vals[i][d] == '*') times = d > 3 ? MAXV + 1 : strtol(vals[i], NULL, 10);
        for (long t = 0; t < times; t++) {
            if (*n == MAXV)
                GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &%s %s: more than %d values (one per field)",
                           r->path, line, group, key, MAXV);
            unrepeat(vals[i], out[(*n)++], NAME);
        }
    }
    if (nval > MAXV)
        GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &%s %s: more than %d values (one per field)", r->path,
                   line, group, key, MAXV);
    return GALE_OK;
}

/* chain_mesh_tags = 'C16', 'C8', ... (nval values, the first MAXV in vals;
 * a repeat count 2*'C8' stands for two): kept for resolve(). */
static void hold_chain(nml_t *r, int line, const char (*vals)[GALE_STR], int nval)
{
    size_t len = 0;
    r->chain.n = 0, r->chain.line = line;
    for (int i = 0; i < nval; i++) {
        const char *v = i < MAXV ? vals[i] : "";
        long times = 1;
        size_t d = strspn(v, "0123456789");
        if (d && v[d] == '*') { /* r*c: the bare token still has the quotes of c */
            times = d > 12 ? LONG_MAX / 4 : strtol(v, NULL, 10); /* past 16 only the count matters */
            v += d + 1;
        }
        size_t n = strlen(v);
        if (n >= 2 && (v[0] == '\'' || v[0] == '"') && v[n - 1] == v[0]) v++, n -= 2;
        long more = 0; /* past the stored ones and the "...", only the count */
        if (times > MAXV + 1) more = times - (MAXV + 1), times = MAXV + 1;
        for (long t = 0; t < times; t++, r->chain.n++) {
            if (r->chain.n < MAXV)
                snprintf(r->chain.tag[r->chain.n], NAME, "%.*s", (int)n, v);
            if (r->chain.n < MAXV && len < sizeof r->chain.text)
                len += (size_t)snprintf(r->chain.text + len, sizeof r->chain.text - len,
                                        "%s'%.*s'", r->chain.n ? ", " : "", (int)n, v);
            else if (r->chain.n == MAXV && len < sizeof r->chain.text)
                len += (size_t)snprintf(r->chain.text + len, sizeof r->chain.text - len, ", ...");
        }
        r->chain.n = more > LONG_MAX / 4 - r->chain.n ? LONG_MAX / 4 : r->chain.n + more;
    }
}

/* Whether namelist value v (without repeat count) is the table's value
 * want: as logicals, as numbers (1000.0e2 is 100000.0), else as words. */
static int same_value(const char *v, const char *want)
{
    char a[64], b[64];
    if (strict_logical(want) >= 0) return strict_logical(v) == strict_logical(want);
    if (!fortran_number(want)) return strcasecmp(v, want) == 0;
    if (!fortran_number(v)) return 0;
    snprintf(a, sizeof a, "%s", v), snprintf(b, sizeof b, "%s", want);
    for (char *p = a; *p; p++)
        if (*p == 'd' || *p == 'D') *p = 'e';
    return strtod(a, NULL) == strtod(b, NULL);
}

/* Whether v is one of the words of list (up to a '|', or the end). */
static int one_of(const char *v, const char *list)
{
    char head[512], buf[512];
    const char *w[MAXW];
    snprintf(head, sizeof head, "%.*s", (int)strcspn(list, "|"), list);
    int nw = words(head, buf, sizeof buf, w);
    for (int k = 0; k < nw; k++)
        if (same_value(v, w[k])) return 1;
    return 0;
}

/* An ONLY row: every value (one per field in a list) must be one gale
 * computes; any other is refused, with the note's reason. */
static int only(nml_t *r, int line, int m, const char (*vals)[GALE_STR], int nval)
{
    const char *group = lfric_map[m].group, *key = lfric_map[m].key;
    char v[GALE_STR], w[GALE_STR + 2], allowed[512], buf[512];
    const char *ws[MAXW];
    for (int i = 0; i < nval && i < MAXV; i++) {
        unrepeat(vals[i], v, sizeof v);
        if (one_of(v, lfric_map[m].values)) continue;
        written(v, w, sizeof w);
        if (lfric_map[m].note)
            GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &%s %s = %s: %s", r->path, line, group, key, w,
                       lfric_map[m].note);
        size_t n = 0;
        int nw = words(lfric_map[m].values, buf, sizeof buf, ws);
        for (int k = 0; k < nw && n < sizeof allowed; k++) {
            char q[NAME + 2];
            written(ws[k], q, sizeof q);
            n += (size_t)snprintf(allowed + n, sizeof allowed - n, "%s%s", k ? " or " : "", q);
        }
        GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &%s %s = %s: gale models only %s", r->path, line,
                   group, key, w, allowed);
    }
    return GALE_OK;
}

/* A STANDIN row (a &transport method): gale's values pass; LFRic's others
 * are noted for gale_config_parse, which refuses them unless [dynamics]
 * transport_stand_in lets gale's method of lines stand in. */
static int stand_in(nml_t *r, int line, int m, const char (*vals)[GALE_STR], int nval)
{
    const char *group = lfric_map[m].group, *key = lfric_map[m].key, *lv = lfric_map[m].values;
    const char *others = strchr(lv, '|') + 1;
    char v[GALE_STR], w[GALE_STR + 2], name[2 * NAME + 2];
    int noted = 0;
    for (int i = 0; i < nval && i < MAXV; i++) {
        unrepeat(vals[i], v, sizeof v);
        if (one_of(v, lv)) continue;
        if (strcmp(others, "*") != 0 && !one_of(v, others))
            GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &%s %s = '%s': not one of LFRic's values (%.*s %s)",
                       r->path, line, group, key, v, (int)(others - 1 - lv), lv, others);
        written(v, w, sizeof w);
        char *first = r->cfg->stand_in.first, *keys = r->cfg->stand_in.keys;
        if (!first[0] || m < r->stand_m) /* the table's first method key: scheme */
            snprintf(first, GALE_STR, "%s:%d: &%s %s = %.*s: gale implements only the method of "
                     "lines (%s = %.*s: %s)", r->path, line, group, key, NAME, w, key,
                     (int)(others - 1 - lv), lv, lfric_map[m].note),
                r->stand_m = m;
        snprintf(name, sizeof name, "%s.%s", group, key);
        if (!noted++ && strlen(keys) + strlen(name) + 3 < GALE_STR)
            strcat(strcat(keys, keys[0] ? ", " : ""), name);
    }
    return GALE_OK;
}

/* One assignment "key = value [, more values]" (nval values, the first MAXV
 * in vals) in group g, as its row for this namelist's kind says. */
static int assign(nml_t *r, int line, int g, const char *key, const char (*vals)[GALE_STR],
                  int nval)
{
    const char *group = lfric_keys[g].group, *val = vals[0];
    char buf[2048], sugg[1024], text[GALE_STR];
    const char *w[MAXW];
    if (r->first) { /* the kind only: 'gungho' or 'none' */
        if (strcmp(group, "section_choice") != 0 || strcmp(key, "dynamics") != 0) return GALE_OK;
        if (strcasecmp(val, "gungho") && strcasecmp(val, "none"))
            GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &%s %s = '%s': not one of 'gungho' (the nonlinear "
                       "core) and 'none' (the gravity_wave mini-app's linear one)", r->path, line,
                       group, key, val);
        r->gungho = strcasecmp(val, "gungho") == 0 ? line : 0;
        return GALE_OK;
    }
    if (!known_key(g, key)) {
        gale_config_suggest_(sugg, sizeof sugg, key, w,
                             words(lfric_keys[g].keys, buf, sizeof buf, w), "'", "'");
        GALE_ERROR(GALE_ERR_INPUT,
                   "%s:%d: &%s %s: not a key of LFRic's gravity_wave or GungHo namelists; %s",
                   r->path, line, group, key, sugg);
    }
    const int m = find_map(group, key, r->gungho ? GH : GW);
    if (m < 0)
        GALE_ERROR(GALE_ERR_INTERNAL, "&%s %s has no row in the namelist table", group, key);
    const int kind = lfric_map[m].kind;
    switch (lfric_map[m].cat) {
    case UNREAD:
    case NOEFF:
        not_used(r, group, key);
        return GALE_OK;
    case STANDIN:
        return stand_in(r, line, m, vals, nval);
    case ONLY:
        if (kind == FORMS) { /* held: checked field by field at the end */
            const int names = strcmp(key, "field_names") == 0;
            r->names.line = names ? line : r->names.line;
            r->forms.line = names ? r->forms.line : line;
            return names ? hold_list(r, line, group, key, vals, nval, r->names.v, &r->names.n)
                         : hold_list(r, line, group, key, vals, nval, r->forms.v, &r->forms.n);
        }
        if (kind != WIND) return only(r, line, m, vals, nval);
        break;
    default: /* MAPS */
        break;
    }
    const int list = strcmp(key, "chain_mesh_tags") == 0; /* the chain's mesh names */
    if (nval != 1 && !list)
        GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &%s %s: expected one value, got %d", r->path, line,
                   group, key, nval);
    const char *section = lfric_map[m].section, *gkey = lfric_map[m].gkey;
    switch (kind) {
    case CORE:
    case GH_CASE:
    case ROTATE: {
        if (kind == ROTATE && logical(val) < 0)
            GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &%s %s = '%s': not a logical (.true. or .false.)",
                       r->path, line, group, key, val);
        GALE_ASSERT(r->nheld < NHELD); /* one each: a duplicate key stops first */
        r->held[r->nheld].m = m, r->held[r->nheld].line = line;
        snprintf(r->held[r->nheld++].val, GALE_STR, "%.*s", GALE_STR - 1, val);
        return GALE_OK;
    }
    case WIND:
    case WIDTH: {
        struct held *h = kind == WIND ? &r->wind : &r->width;
        snprintf(h->val, sizeof h->val, "%.*s", GALE_STR - 1, val);
        h->line = line;
        return GALE_OK;
    }
    case CHAIN: /* multigrid_chain_nitems is held like the mesh keys */
    case MESH:
    case STEP: {
        if (list) {
            hold_chain(r, line, vals, nval);
            return GALE_OK;
        }
        struct held *h = strcmp(key, "prime_mesh_name") == 0  ? &r->prime
                         : strcmp(key, "filename") == 0       ? &r->file
                         : strcmp(key, "file_prefix") == 0    ? &r->prefix
                         : strcmp(key, "timestep_start") == 0 ? &r->start
                         : strcmp(key, "timestep_end") == 0   ? &r->end
                                                              : &r->nitems;
        snprintf(h->val, sizeof h->val, "%.*s", GALE_STR - 1, val); /* val < GALE_STR */
        h->line = line;
        return GALE_OK;
    }
    case MGFLAG: {
        int on = logical(val);
        if (on < 0)
            GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &%s %s = '%s': not a logical (.true. or .false.)",
                       r->path, line, group, key, val);
        if (!r->mg.line || !on) r->mg.group = group, r->mg.line = line, r->mg.on = on;
        return GALE_OK;
    }
    case NUM: {
        if (!fortran_number(val))
            GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &%s %s = '%s': not a number (Fortran: digits, "
                       "one '.', an e or d exponent)", r->path, line, group, key, val);
        snprintf(text, sizeof text, "%.*s", GALE_STR - 1, val);
        for (char *p = text; *p; p++)
            if (*p == 'd' || *p == 'D') *p = 'e';
        return set(r, line, group, key, val, section, gkey, text);
    }
    case LOGICAL: {
        int on = logical(val);
        if (on < 0)
            GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &%s %s = '%s': not a logical (.true. or .false.)",
                       r->path, line, group, key, val);
        return set(r, line, group, key, val, section, gkey, on ? "true" : "false");
    }
    case WORD: {
        int nw = words(lfric_map[m].values, buf, sizeof buf, w);
        if (strspn(val, "0123456789") && val[strspn(val, "0123456789")] == '*')
            unrepeat(val, text, sizeof text), val = text;
        for (int i = 0; i < nw; i++) {
            size_t len = strcspn(w[i], "=");
            if (strlen(val) == len && strncasecmp(val, w[i], len) == 0) {
                if (strcmp(key, "preconditioner") == 0) { /* for the l_multigrid check */
                    snprintf(r->pc.val, sizeof r->pc.val, "%.*s", GALE_STR - 1, val);
                    r->pc.line = line;
                }
                return set(r, line, group, key, val, section, gkey,
                           w[i][len] ? w[i] + len + 1 : w[i]);
            }
        }
        char allowed[512];
        size_t n = 0;
        for (int i = 0; i < nw && n < sizeof allowed; i++)
            n += (size_t)snprintf(allowed + n, sizeof allowed - n, "%s'%.*s'", i ? ", " : "",
                                  (int)strcspn(w[i], "="), w[i]);
        GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &%s %s = '%s': no gale counterpart; allowed: %s",
                   r->path, line, group, key, val, allowed);
    }
    }
    GALE_ERROR(GALE_ERR_INTERNAL, "namelist mapping of &%s %s has no kind", group, key);
}

/* Whether a bare token is a value: a number, a logical or a repeat count
 * r*c; anything else (a name) after a value is a key missing its '='. */
static int bare_value(const char *v)
{
    size_t d = strspn(v, "0123456789");
    if (d && v[d] == '*') return !v[d + 1] || v[d + 1] == '\'' || v[d + 1] == '"' ||
                                 bare_value(v + d + 1);
    if (*v == '.') return strchr("tTfF", v[1]) && v[1];
    if (!strcasecmp(v, "t") || !strcasecmp(v, "f") || !strcasecmp(v, "true") ||
        !strcasecmp(v, "false"))
        return 1;
    return strchr("+-.0123456789", *v) != NULL;
}

/* Whether v, from its quote on, is one whole quoted string ('it''s'). */
static int whole_string(const char *v)
{
    size_t i = 1;
    while (v[i] && (v[i] != v[0] || v[i + 1] == v[0])) i += v[i] == v[0] ? 2 : 1;
    return v[i] == v[0] && !v[i + 1];
}

/* Fortran namelist syntax of a bare (unquoted) value, whatever its key: a
 * number, a logical, r* (r null values) or r*constant with r a positive
 * integer, or, as the first value, an undelimited word (gfortran reads one
 * as a string). 0, or -1 with why. */
static int check_value(const char *v, int first, char *why, size_t n)
{
    size_t d = strspn(v, "0123456789");
    if (d && v[d] == '*') {
        if (strspn(v, "0") == d) {
            snprintf(why, n, "a repeat count r* needs r >= 1");
            return -1;
        }
        v += d + 1;
        if (!*v) return 0;
        if (*v == '\'' || *v == '"') {
            if (whole_string(v)) return 0;
            snprintf(why, n, "unbalanced quote %c", *v);
            return -1;
        }
    }
    if (fortran_number(v)) {
        char text[GALE_STR];
        double x;
        snprintf(text, sizeof text, "%.*s", GALE_STR - 1, v);
        for (char *p = text; *p; p++)
            if (*p == 'd' || *p == 'D') *p = 'e';
        return gale_config_real_(text, &x, why, n);
    }
    if (strict_logical(v) >= 0) return 0;
    if (first && isalpha((unsigned char)*v) &&
        !v[strspn(v, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")])
        return 0;
    const char *what =
        strchr(v, '*')                              ? "a repeat count r*value needs r an unsigned integer"
        : strpbrk(v, "'\"")                          ? "unbalanced quote"
        : *v == '.' && isalpha((unsigned char)v[1]) ? "not a logical (.true. or .false.)"
        : strchr("+-.0123456789", *v) ? "not a number (Fortran: digits, one '.', an e or d exponent)"
                                      : "not a value: expected a number, a logical (.true., "
                                        ".false., T, F), a quoted string or r*value with r >= 1";
    snprintf(why, n, "%s", what);
    return -1;
}

/* The body of group g, after "&name", up to and including its "/". */
static int read_group(nml_t *r, int g, int opened)
{
    const char *group = lfric_keys[g].group;
    char key[NAME], vals[MAXV][GALE_STR], extra[GALE_STR], why[256], look[NAME + 2];
    r->nseen = 0;
    for (;;) {
        skip(r, 1);
        if (*r->p == '/') {
            r->p++;
            return GALE_OK;
        }
        if (!*r->p || *r->p == '&')
            GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &%s (opened on line %d): missing '/' at its end",
                       r->path, r->line, group, opened);
        int line = r->line;
        if (!read_name(r, key))
            GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &%s: expected a key name, found '%.*s'", r->path,
                       line, group, shown(r->p), r->p);
        skip(r, 0);
        if (*r->p != '=')
            GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &%s %s: expected '=' after the key name", r->path,
                       line, group, key);
        r->p++;
        snprintf(look, sizeof look, " %s ", key);
        if (r->nseen && strstr(r->seen, look))
            GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &%s %s: duplicate key", r->path, line, group, key);
        if (r->nseen + sizeof look >= r->capseen) {
            char *b = realloc(r->seen, r->capseen = 2 * r->capseen + sizeof look);
            if (!b) GALE_ERROR(GALE_ERR_MEM, "out of memory reading '%s'", r->path);
            r->seen = b;
        }
        r->nseen += (size_t)sprintf(r->seen + r->nseen, "%s", look + !!r->nseen);
        int nval = 0;
        for (;;) {
            skip(r, 1);
            if (!*r->p || *r->p == '/' || *r->p == '&' || at_assignment(r)) break;
            const int vline = r->line, quoted = *r->p == '\'' || *r->p == '"';
            char *v = nval < MAXV ? vals[nval] : extra;
            if (read_value(r, v, why, sizeof why))
                GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &%s %s: %s", r->path, r->line, group, key, why);
            /* a name where a further value should be: the next key lacks its
             * '=' (strict Fortran reading; the value list ends at "name =") */
            if (nval && !quoted && !bare_value(v)) {
                if (isalpha((unsigned char)*v))
                    GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &%s %.*s: expected '=' after the key name",
                               r->path, vline, group, (int)strcspn(v, "'\""), v);
                GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &%s %s: '%s' is not a value (a number, a "
                           "logical or a quoted string)", r->path, vline, group, key, v);
            }
            if (!quoted && check_value(v, !nval, why, sizeof why))
                GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &%s %s = '%s': %s", r->path, vline, group, key,
                           v, why);
            nval++;
        }
        if (!nval)
            GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &%s %s: no value", r->path, line, group, key);
        GALE_CALL(assign(r, line, g, key, vals, nval));
    }
}

/* "C<N>" as the whole of s (whole != 0) or as a word in it (mesh_C16_MG.nc
 * -> C16), copied to out; 0 if none. */
static int mesh_word(const char *s, int whole, char *out, size_t n)
{
    for (const char *p = s; *p; p++) {
        size_t d = strspn(p + 1, "0123456789");
        int start = p == s || !isalnum((unsigned char)p[-1]);
        int stop = whole ? !p[1 + d] : !isalnum((unsigned char)p[1 + d]);
        if (*p == 'C' && d && start && stop) {
            snprintf(out, n, "%.*s", (int)d + 1, p);
            return 1;
        }
        if (whole) return 0;
    }
    return 0;
}

/* The multigrid keys, once the mesh is known: chain_mesh_tags starts at the
 * prime mesh and halves N at every step, agrees with multigrid_chain_nitems
 * and sets [multigrid] levels; a 'multigrid' preconditioner needs l_multigrid
 * (LFRic builds no chain without it). mesh_from: where the prime mesh came
 * from, for messages. */
static int resolve_multigrid(nml_t *r, const char *mesh_from)
{
    char text[32], why[1024];
    const char *tags = r->chain.text;
    const long n = r->chain.n;
    if (r->chain.line && r->nitems.line) {
        char *e;
        errno = 0;
        long v = strtol(r->nitems.val, &e, 10);
        if (e == r->nitems.val || *e || errno)
            GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &multigrid multigrid_chain_nitems = '%s': not an "
                       "integer", r->path, r->nitems.line, r->nitems.val);
        if (v != n)
            GALE_ERROR(GALE_ERR_INPUT,
                       "%s:%d: &multigrid chain_mesh_tags = %s: %ld meshes, but "
                       "multigrid_chain_nitems = %ld (line %d): expected as many meshes as "
                       "multigrid_chain_nitems says",
                       r->path, r->chain.line, tags, n, v, r->nitems.line);
    }
    if (r->chain.line) {
        snprintf(text, sizeof text, "%ld", n);
        if (gale_config_set_(r->cfg, "multigrid", "levels", text, why, sizeof why))
            GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &multigrid chain_mesh_tags = %s (gale [multigrid] "
                       "levels = %ld): %s", r->path, r->chain.line, tags, n, why);
        snprintf(why, sizeof why, "&multigrid chain_mesh_tags = %.*s", GALE_ORIGIN / 2, tags);
        gale_config_from_nml_(r->cfg, "multigrid", "levels", r->chain.line, why);
        int prev = 0;
        for (int i = 0; i < n; i++) { /* n <= 16 < MAXV: every tag is stored */
            char want[32], *e = "";
            const char *t = r->chain.tag[i];
            long v = (t[0] == 'C' || t[0] == 'c') && isdigit((unsigned char)t[1])
                         ? strtol(t + 1, &e, 10) : -1;
            if (v < 0 || *e || v > 8192)
                GALE_ERROR(GALE_ERR_INPUT,
                           "%s:%d: &multigrid chain_mesh_tags = %s: mesh %d, '%s', is not a "
                           "cubed-sphere mesh name gale knows: expected C<N> (e.g. 'C8')",
                           r->path, r->chain.line, tags, i + 1, t);
            if (i == 0 && v != r->cfg->mesh.n)
                GALE_ERROR(GALE_ERR_INPUT,
                           "%s:%d: &multigrid chain_mesh_tags = %s: the first mesh, '%s', should "
                           "be the prime mesh 'C%d' (%s)",
                           r->path, r->chain.line, tags, t, r->cfg->mesh.n, mesh_from);
            if (i > 0 && (prev % 2 || v != prev / 2)) {
                if (prev % 2) snprintf(want, sizeof want, "none: N = %d is odd", prev);
                else snprintf(want, sizeof want, "'C%d'", prev / 2);
                GALE_ERROR(GALE_ERR_INPUT,
                           "%s:%d: &multigrid chain_mesh_tags = %s: mesh %d, '%s', should halve "
                           "N of the mesh before it ('C%d'): expected %s",
                           r->path, r->chain.line, tags, i + 1, t, prev, want);
            }
            prev = (int)v;
        }
    } else if (r->nitems.line) {
        GALE_CALL(set(r, r->nitems.line, "multigrid", "multigrid_chain_nitems", r->nitems.val,
                      "multigrid", "levels", r->nitems.val));
        /* C_N, C_N/2, ... while N is even: gale would silently build fewer */
        int most = 1;
        for (int n2 = r->cfg->mesh.n; n2 % 2 == 0; n2 /= 2) most++;
        if (r->cfg->multigrid.levels > most)
            GALE_ERROR(GALE_ERR_INPUT,
                       "%s:%d: &multigrid multigrid_chain_nitems = %s: mesh C%d allows at most %d "
                       "levels (C%d, halved while N is even; %s)", r->path, r->nitems.line,
                       r->nitems.val, r->cfg->mesh.n, most, r->cfg->mesh.n, mesh_from);
    }
    if (r->mg.line && !r->mg.on && r->pc.line && strcasecmp(r->pc.val, "multigrid") == 0)
        GALE_ERROR(GALE_ERR_INPUT,
                   "%s:%d: &helmholtz_solver preconditioner = '%s' needs the multigrid mesh "
                   "chain, but &%s l_multigrid = .false. (line %d) has none (LFRic cannot run "
                   "this either): set l_multigrid = .true. or choose another preconditioner",
                   r->path, r->pc.line, r->pc.val, r->mg.group, r->mg.line);
    return GALE_OK;
}

/* &initial_wind profile: gale's cases set their own wind, so the profile
 * must be the one LFRic's test of that case uses. */
static int resolve_wind(nml_t *r)
{
    static const struct { int kase; const char *profiles; } wind[] = {
        {GALE_CASE_GRAVITY_WAVE, "none zero"},
        {GALE_CASE_RESTING, "none zero"},
        {GALE_CASE_DCMIP31, "solid_body_rotation"},
        {GALE_CASE_BAROCLINIC_WAVE, "deep_baroclinic_perturbed"},
    };
    char buf[256];
    const char *w[MAXW];
    if (!r->wind.line) return GALE_OK;
    for (size_t i = 0; i < sizeof wind / sizeof wind[0]; i++) {
        if (wind[i].kase != r->cfg->initial.kase) continue;
        int nw = words(wind[i].profiles, buf, sizeof buf, w);
        for (int k = 0; k < nw; k++)
            if (strcasecmp(r->wind.val, w[k]) == 0) return GALE_OK;
        GALE_ERROR(GALE_ERR_INPUT,
                   "%s:%d: &initial_wind profile = '%s': gale's case %s sets its own wind, "
                   "LFRic's profile '%s'%s%s%s", r->path, r->wind.line, r->wind.val,
                   gale_config_choice("initial", "case", r->cfg->initial.kase), w[0],
                   nw > 1 ? " or '" : "", nw > 1 ? w[1] : "", nw > 1 ? "'" : "");
    }
    GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &initial_wind profile = '%s': gale's case %s has no LFRic "
               "wind profile", r->path, r->wind.line, r->wind.val,
               gale_config_choice("initial", "case", r->cfg->initial.kase));
}

/* &transport equation_form, field by field (field_names): LFRic's 1
 * conservative, 2 advective, 3 consistent (advective, consistent with the
 * density's flux). gale transports density in flux form and theta and the
 * wind in advective form, theta's as its flux form less theta div u, which
 * is consistent with the density's: 2 and 3 both stand for it. Fields gale
 * does not carry (moisture, tracers: it is dry) take any form. Only a GungHo
 * namelist transports. */
static int resolve_forms(nml_t *r)
{
    if (!r->forms.line) return GALE_OK; /* held only in a GungHo namelist */
    if (!r->names.line)
        GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &transport equation_form needs field_names, to say "
                   "which field each form is for", r->path, r->forms.line);
    if (r->names.n != r->forms.n)
        GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &transport equation_form has %d values, field_names "
                   "(line %d) %d: one form per field", r->path, r->forms.line, r->forms.n,
                   r->names.line, r->names.n);
    for (int i = 0; i < r->forms.n; i++) {
        const char *f = r->forms.v[i], *name = r->names.v[i];
        if (strcmp(f, "1") && strcmp(f, "2") && strcmp(f, "3"))
            GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &transport equation_form = '%s' (field '%s'): not "
                       "1 (conservative), 2 (advective) or 3 (consistent)", r->path,
                       r->forms.line, f, name);
        const int cons = strcmp(f, "1") == 0;
        if (strcmp(name, "density") == 0 && !cons)
            GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &transport equation_form = %s for 'density': gale "
                       "transports the density in conservative (flux) form only (1)", r->path,
                       r->forms.line, f);
        if ((strcmp(name, "potential_temperature") == 0 ||
             (strcmp(name, "wind") == 0 && !r->cfg->dynamics.vector_invariant)) && cons)
            GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &transport equation_form = 1 (conservative) for "
                       "'%s': gale transports it in advective form only (2, or 3: consistent)",
                       r->path, r->forms.line, name);
    }
    return GALE_OK;
}

/* GungHo's keys, once the whole file is read (they are held only in a
 * GungHo namelist, &section_choice dynamics = 'gungho'): [dynamics] equations
 * = nonlinear, the case; &formulation rotating = .false. then sets [planet]
 * omega = 0, whatever &planet omega says. */
static int resolve_gungho(nml_t *r)
{
    char buf[2048];
    const char *w[MAXW];
    int rotating = -1, rline = 0, test = 0;
    if (r->gungho)
        GALE_CALL(set(r, r->gungho, "section_choice", "dynamics", "gungho", "dynamics",
                      "equations", "nonlinear"));
    for (int i = 0; i < r->nheld; i++) {
        const int m = r->held[i].m, line = r->held[i].line;
        const char *group = lfric_map[m].group, *key = lfric_map[m].key, *val = r->held[i].val;
        if (lfric_map[m].kind == ROTATE) rotating = logical(val), rline = line;
        if (lfric_map[m].kind != GH_CASE) continue; /* CORE: r->gungho */
        test = line;
        int nw = words(lfric_map[m].values, buf, sizeof buf, w), found = 0;
        for (int k = 0; k < nw && !found; k++) {
            size_t len = strcspn(w[k], "=");
            if (strlen(val) != len || strncasecmp(val, w[k], len) != 0) continue;
            found = 1;
            GALE_CALL(set(r, line, group, key, val, "initial", "case", w[k] + len + 1));
            if (strcmp(w[k] + len + 1, "resting") == 0) /* LFRic's isothermal atmosphere */
                GALE_CALL(set(r, line, group, key, val, "initial", "profile", "isothermal"));
        }
        if (!found)
            GALE_ERROR(GALE_ERR_INPUT,
                       "%s:%d: &%s %s = '%s': gale's nonlinear core has no such case; it "
                       "runs 'deep_baroclinic_wave' (gale's baroclinic_wave), 'gravity_wave' "
                       "(the DCMIP 3-1 gravity wave, gale's dcmip31) and 'isot_atm' (the "
                       "isothermal atmosphere at rest, gale's resting)",
                       r->path, line, group, key, val);
    }
    if (rotating == 0)
        GALE_CALL(set(r, rline, "formulation", "rotating", ".false.", "planet", "omega", "0.0"));
    if (r->gungho && !test)
        GALE_ERROR(GALE_ERR_INPUT,
                   "%s:%d: &section_choice dynamics = 'gungho' needs &idealised test: gale's "
                   "nonlinear core runs 'deep_baroclinic_wave', 'gravity_wave' or 'isot_atm'",
                   r->path, r->gungho);
    GALE_CALL(resolve_forms(r));
    return resolve_wind(r);
}

/* &initial_temperature pert_width_scaling, once the planet is known: LFRic
 * scales DCMIP 3-1's half-width, 625 km, by it and by 1 / scaling_factor;
 * gale's [initial] half_width is that distance on the model sphere. */
static int resolve_width(nml_t *r)
{
    char text[64];
    if (!r->width.line) return GALE_OK;
    if (!fortran_number(r->width.val))
        GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &initial_temperature pert_width_scaling = '%s': not a "
                   "number (Fortran: digits, one '.', an e or d exponent)", r->path,
                   r->width.line, r->width.val);
    snprintf(text, sizeof text, "%.*s", (int)sizeof text - 1, r->width.val);
    for (char *p = text; *p; p++)
        if (*p == 'd' || *p == 'D') *p = 'e';
    snprintf(text, sizeof text, "%.17g", strtod(text, NULL) * 625000.0 / r->cfg->planet.scaling);
    return set(r, r->width.line, "initial_temperature", "pert_width_scaling", r->width.val,
               "initial", "half_width", text);
}

/* Keys that combine: the mesh from prime_mesh_name or filename, the step
 * count from timestep_start and timestep_end, the multigrid chain, GungHo's
 * keys. */
static int resolve(nml_t *r)
{
    char text[GALE_STR], why[1024];
    const char *mesh_from = "gale's default [mesh] name: the namelist gives no &base_mesh mesh";
    if (r->prime.line || r->file.line || r->prefix.line) {
        /* prime_mesh_name when it is C<N>, else the C<N> word of the mesh
         * file's name (filename, or the newer layout's file_prefix) */
        struct held *h = NULL;
        const char *from = NULL;
        if (r->prime.line && mesh_word(r->prime.val, 1, text, sizeof text))
            h = &r->prime, from = "prime_mesh_name";
        else if (r->file.line && mesh_word(r->file.val, 0, text, sizeof text))
            h = &r->file, from = "filename";
        else if (r->prefix.line && mesh_word(r->prefix.val, 0, text, sizeof text))
            h = &r->prefix, from = "file_prefix";
        if (!h)
            GALE_ERROR(GALE_ERR_INPUT,
                       "%s:%d: &base_mesh: cannot tell the cubed-sphere mesh from prime_mesh_name "
                       "= '%s', filename = '%s' or file_prefix = '%s': gale needs C<N> (e.g. "
                       "'C16') in one of them",
                       r->path, r->prime.line ? r->prime.line : r->file.line ? r->file.line
                                                                            : r->prefix.line,
                       r->prime.val, r->file.val, r->prefix.val);
        /* the others must name the same mesh, or which one runs is a guess */
        struct held *o[3] = {&r->prime, &r->file, &r->prefix};
        const char *oname[3] = {"prime_mesh_name", "filename", "file_prefix"};
        for (int i = 0; i < 3; i++) {
            char other[GALE_STR];
            if (o[i] == h || !o[i]->line || !mesh_word(o[i]->val, o[i] == &r->prime, other,
                                                        sizeof other))
                continue;
            if (strcmp(other, text) != 0)
                GALE_ERROR(GALE_ERR_INPUT,
                           "%s:%d: &base_mesh %s = '%s' names mesh %s, but %s = '%s' (line %d) "
                           "names %s: make them agree", r->path, o[i]->line, oname[i],
                           o[i]->val, other, from, h->val, h->line, text);
        }
        GALE_CALL(set(r, h->line, "base_mesh", from, h->val, "mesh", "name", text));
        mesh_from = h == &r->prime ? "from &base_mesh prime_mesh_name"
                    : h == &r->file ? "from &base_mesh filename"
                                    : "from &base_mesh file_prefix";
    }
    long v[2] = {1, 0};
    struct held *h[2] = {&r->start, &r->end};
    for (int i = 0; i < 2; i++) { /* both in [1, INT_MAX]: end - start + 1 cannot overflow */
        char *e;
        if (!h[i]->line) continue;
        errno = 0;
        v[i] = strtol(h[i]->val, &e, 10);
        if (e == h[i]->val || *e || errno || v[i] < 1 || v[i] > INT_MAX)
            GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &time %s = '%s': not a time-step number (an "
                       "integer in [1, %d])", r->path, h[i]->line,
                       i ? "timestep_end" : "timestep_start", h[i]->val, INT_MAX);
    }
    if (r->end.line) {
        snprintf(text, sizeof text, "%ld", v[1] - v[0] + 1);
        if (gale_config_set_(r->cfg, "timestepping", "steps", text, why, sizeof why))
            GALE_ERROR(GALE_ERR_INPUT,
                       "%s:%d: &time timestep_start = %ld, timestep_end = %ld (gale [timestepping] "
                       "steps = %s): %s",
                       r->path, r->end.line, v[0], v[1], text, why);
        snprintf(why, sizeof why, "&time timestep_start = %ld, timestep_end = %ld", v[0], v[1]);
        gale_config_from_nml_(r->cfg, "timestepping", "steps", r->end.line, why);
    }
    GALE_CALL(resolve_multigrid(r, mesh_from));
    GALE_CALL(resolve_width(r));
    return resolve_gungho(r);
}

static int read_groups(nml_t *r)
{
    char name[NAME], sugg[1024];
    const char *cand[NGROUPS];
    int opened[NGROUPS] = {0};
    for (int g = 0; g < NGROUPS; g++) cand[g] = lfric_keys[g].group;
    for (;;) {
        skip(r, 0);
        if (!*r->p) return r->first ? GALE_OK : resolve(r);
        int line = r->line;
        if (*r->p != '&')
            GALE_ERROR(GALE_ERR_INPUT, "%s:%d: expected '&group', found '%.*s'", r->path, line,
                       shown(r->p), r->p);
        r->p++;
        if (!read_name(r, name))
            GALE_ERROR(GALE_ERR_INPUT, "%s:%d: expected a group name after '&'", r->path, line);
        int g = find_group(name);
        if (g < 0) {
            gale_config_suggest_(sugg, sizeof sugg, name, cand, NGROUPS, "&", "");
            GALE_ERROR(GALE_ERR_INPUT,
                       "%s:%d: &%s: not a group of LFRic's gravity_wave or GungHo namelists; %s", r->path,
                       line, name, sugg);
        }
        if (opened[g])
            GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &%s: group given twice (first on line %d)",
                       r->path, line, name, opened[g]);
        opened[g] = line;
        GALE_CALL(read_group(r, g, line));
    }
}

int gale_config_read_nml_(gale_config_t *cfg, const char *path)
{
    char *text = NULL, *unused = NULL;
    size_t len = 0;
    GALE_CALL(gale_config_read_text_(path, &text));
    /* LFRic always uses the consistent W2 mass matrix (&finite_element
     * rehabilitate only chooses its basis): so does a namelist run, whatever
     * cfg held; a command-line override, applied after, may still choose lumped. */
    char why[256];
    if (gale_config_set_(cfg, "dynamics", "mass_matrix", "consistent", why, sizeof why)) {
        free(text);
        GALE_ERROR(GALE_ERR_INTERNAL, "%s", why);
    }
    /* two passes: the first finds the kind (&section_choice dynamics), which
     * decides what every key of the second does, wherever the group is */
    nml_t r = {.path = path, .p = text, .line = 1, .cfg = cfg, .first = 1};
    int st = read_groups(&r);
    free(r.seen);
    const int gungho = r.gungho;
    r = (nml_t){.path = path, .p = text, .line = 1, .cfg = cfg, .gungho = gungho};
    r.unused = open_memstream(&unused, &len);
    if (st == GALE_OK) st = r.unused ? read_groups(&r) : GALE_ERR_MEM;
    if (r.unused) fclose(r.unused);
    free(r.seen);
    free(text);
    if (st == GALE_OK && r.nunused)
        gale_log(GALE_LOG_INFO, "LFRic namelist %s: not used (no effect on gale's answers; "
                 "docs/lfric-namelist.md): %s", path, unused);
    free(unused);
    if (st == GALE_ERR_MEM) GALE_ERROR(GALE_ERR_MEM, "out of memory reading '%s'", path);
    return st;
}

/* ---------------- the table itself ---------------- */

static const char *const cat_name[] = {"not read", "no effect", "honoured", "gale's value only",
                                       "gale's value only, or stood in for"};

/* The row of every key of lfric_keys[] for kind in, or -1 (expanding "*"). */
static int row_of(int g, const char *key, int in)
{
    return find_map(lfric_keys[g].group, key, in);
}

int gale_config_nml_check_(char *why, size_t n, int count[2][5])
{
    char buf[4096];
    const char *w[512];
    why[0] = '\0';
    memset(count, 0, 2 * 5 * sizeof count[0][0]);
    for (int m = 0; m < NMAP; m++) {
        const int g = find_group(lfric_map[m].group), cat = lfric_map[m].cat;
        const char *key = lfric_map[m].key, *sec = lfric_map[m].section;
        if (g < 0 || (strcmp(key, "*") != 0 && !known_key(g, key)))
            return snprintf(why, n, "row &%s %s: not a key of lfric_keys[]", lfric_map[m].group,
                            key), -1;
        for (int k = 0; k < m; k++) /* one row per key and kind */
            if (strcmp(lfric_map[k].group, lfric_map[m].group) == 0 &&
                strcmp(lfric_map[k].key, key) == 0 && (lfric_map[k].in & lfric_map[m].in))
                return snprintf(why, n, "&%s %s: two rows for one kind", lfric_map[m].group,
                                key), -1;
        if ((cat == NOEFF && !lfric_map[m].note) ||
            (cat == ONLY && lfric_map[m].kind == NONE && !lfric_map[m].values) ||
            (cat == STANDIN && (!lfric_map[m].values || !strchr(lfric_map[m].values, '|') ||
                                !lfric_map[m].note)) ||
            (cat == MAPS && sec && gale_config_key_index_(sec, lfric_map[m].gkey) < 0))
            return snprintf(why, n, "&%s %s: its row lacks what its category needs",
                            lfric_map[m].group, key), -1;
    }
    for (int g = 0; g < NGROUPS; g++) {
        int nw = words(lfric_keys[g].keys, buf, sizeof buf, w);
        for (int i = 0; i < nw; i++)
            for (int in = GW; in <= GH; in++) {
                const int m = row_of(g, w[i], in);
                if (m < 0)
                    return snprintf(why, n, "&%s %s: no row for a %s namelist",
                                    lfric_keys[g].group, w[i],
                                    in == GW ? "gravity_wave" : "GungHo"), -1;
                count[in - 1][lfric_map[m].cat]++;
            }
    }
    return 0;
}

/* A category cell: the category and, for gale's values, which. */
static void cat_cell(int m, char *out, size_t n)
{
    char head[512], buf[512], q[NAME + 2];
    const char *w[MAXW];
    if (m < 0) {
        snprintf(out, n, "-");
        return;
    }
    const int cat = lfric_map[m].cat;
    if ((cat != ONLY && cat != STANDIN) || !lfric_map[m].values) {
        snprintf(out, n, "%s", cat == ONLY ? "gale's values only (why)" : cat_name[cat]);
        return;
    }
    snprintf(head, sizeof head, "%.*s", (int)strcspn(lfric_map[m].values, "|"),
             lfric_map[m].values);
    int nw = words(head, buf, sizeof buf, w);
    size_t len = (size_t)snprintf(out, n, "only");
    for (int k = 0; k < nw && len < n; k++) {
        written(w[k], q, sizeof q);
        len += (size_t)snprintf(out + len, n - len, "%s %s", k ? " or" : "", q);
    }
    if (cat == STANDIN && len < n) snprintf(out + len, n - len, ", or stood in for");
}

void gale_config_print_nml(int md)
{
    int count[2][5];
    char why[256], gw[256], gh[256], gale[128], note[2048];
    if (gale_config_nml_check_(why, sizeof why, count)) {
        printf("gale: the namelist table is broken: %s\n", why);
        return;
    }
    if (md)
        puts("| LFRic key | gravity_wave namelist | GungHo namelist | gale | why |\n"
             "|---|---|---|---|---|");
    else
        puts("LFRic namelist keys: what each does in a gravity_wave namelist and in a GungHo one\n"
             "(&section_choice dynamics = 'gungho'); docs/lfric-namelist.md");
    for (int m = 0; m < NMAP; m++) {
        const char *group = lfric_map[m].group, *key = lfric_map[m].key;
        int seen = 0;
        for (int k = 0; k < m && !seen; k++)
            seen = strcmp(lfric_map[k].group, group) == 0 && strcmp(lfric_map[k].key, key) == 0;
        if (seen) continue; /* the key's other row is printed with its first */
        const int star = strcmp(key, "*") == 0;
        int mw = -1, mh = -1;
        for (int k = 0; k < NMAP; k++)
            if (strcmp(lfric_map[k].group, group) == 0 && strcmp(lfric_map[k].key, key) == 0) {
                if (lfric_map[k].in & GW) mw = k;
                if (lfric_map[k].in & GH) mh = k;
            }
        if (!star) { /* a key without a row for one kind takes its group's "*" row */
            const int g = find_group(group);
            if (mw < 0) mw = row_of(g, key, GW);
            if (mh < 0) mh = row_of(g, key, GH);
        }
        cat_cell(mw, gw, sizeof gw);
        cat_cell(mh, gh, sizeof gh);
        const int mm = lfric_map[m].cat == MAPS                  ? m
                       : mw >= 0 && lfric_map[mw].cat == MAPS ? mw
                                                              : mh;
        if (mm >= 0 && lfric_map[mm].cat == MAPS && lfric_map[mm].section)
            snprintf(gale, sizeof gale, "[%s] %s", lfric_map[mm].section, lfric_map[mm].gkey);
        else
            snprintf(gale, sizeof gale, "-");
        /* the notes of this key's own rows, per kind when they differ */
        size_t len = 0;
        note[0] = '\0';
        const int own[2] = {mw >= 0 && strcmp(lfric_map[mw].key, key) == 0 ? mw : -1,
                            mh >= 0 && strcmp(lfric_map[mh].key, key) == 0 ? mh : -1};
        for (int i = 0; i < 2; i++) {
            const int k = own[i];
            if (k < 0 || !lfric_map[k].note || (i == 1 && k == own[0])) continue;
            const int both = own[0] == own[1];
            len += (size_t)snprintf(note + len, sizeof note - len, "%s%s%s", len ? "; " : "",
                                    both ? "" : i ? "GungHo: " : "gravity_wave: ",
                                    lfric_map[k].note);
            if (len >= sizeof note) len = sizeof note - 1;
        }
        if (lfric_map[m].cat == MAPS && lfric_map[m].kind == WORD && lfric_map[m].values &&
            len < sizeof note)
            snprintf(note + len, sizeof note - len, "%svalues: %s", len ? "; " : "",
                     lfric_map[m].values);
        int alone = 1; /* a "*" row of a group without rows of its own keys */
        for (int k = 0; k < NMAP && star && alone; k++)
            alone = strcmp(lfric_map[k].group, group) != 0 || strcmp(lfric_map[k].key, "*") == 0;
        char name[160];
        snprintf(name, sizeof name, !star ? "&%s %s" : alone ? "&%s (every key)"
                                                             : "&%s (its other keys)", group, key);
        if (md)
            printf("| `%s` | %s | %s | %s | %s |\n", name, gw, gh, gale, note);
        else
            printf("  %-46s gravity_wave: %s; GungHo: %s%s%s\n", name, gw, gh,
                   gale[0] == '-' ? "" : "; gale ", gale[0] == '-' ? "" : gale);
    }
    static const char *const kind[2] = {"gravity_wave", "GungHo"};
    if (md) puts("");
    for (int i = 0; i < 2; i++)
        printf("%s%s namelists: %d keys honoured, %d with gale's value only (refused otherwise), "
               "%d of them &transport methods that may be stood in for, %d without effect, %d of "
               "them not read\n", md ? "- " : "", kind[i], count[i][MAPS],
               count[i][ONLY] + count[i][STANDIN], count[i][STANDIN],
               count[i][NOEFF] + count[i][UNREAD], count[i][UNREAD]);
}
