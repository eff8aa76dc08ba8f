/* The nonlinear core's dispatch, one source for both launch layers: included
 * inside a layer's gale_k_nl after it has defined GALE_NL_FOR(i, i0, i1),
 * the loop head with its parallel directives, and has in scope kd and nd
 * (the kmesh and the gale_knl_t the bodies read), F0..F7 (the field
 * pointers the bodies read) and s0, s1 (the scalars). */
switch (id) {
case GALE_NL_EOS:
    GALE_NL_FOR(i, i0, i1) gale_kb_nl_eos(kd, nd, i, F0, F1, F2);
    break;
case GALE_NL_PGRAD:
    GALE_NL_FOR(i, i0, i1) gale_kb_nl_pgrad(kd, nd, i, F0, F1, F2, F3);
    break;
case GALE_NL_VFORCE:
    GALE_NL_FOR(i, i0, i1) gale_kb_nl_vforce(kd, nd, i, F0, F1, F2);
    break;
case GALE_NL_RHS:
    GALE_NL_FOR(i, i0, i1) gale_kb_nl_rhs(kd, nd, i, F0, F1, F2, F3, F4, F5);
    break;
case GALE_NL_MIXCOL:
    GALE_NL_FOR(i, i0, i1) gale_kb_nl_mixcol(kd, nd, i, s0, s1, F0, F1, F2, F3, F4, F5, F6);
    break;
case GALE_NL_UPDATE:
    GALE_NL_FOR(i, i0, i1) gale_kb_nl_update(kd, nd, i, s0, F0, F1, F2, F3, F4, F5, F6, F7);
    break;
case GALE_NL_FLUXES:
    GALE_NL_FOR(i, i0, i1) gale_kb_nl_fluxes(kd, i, F0, F1, F2);
    break;
case GALE_NL_ADVI:
    GALE_NL_FOR(i, i0, i1) gale_kb_nl_advi(kd, nd, i, F0, F1, F2, F3, F4);
    break;
case GALE_NL_RECON:
    GALE_NL_FOR(i, i0, i1) gale_kb_nl_recon(kd, nd, i, F0, F1, F2, F3);
    break;
case GALE_NL_MOM:
    GALE_NL_FOR(i, i0, i1) gale_kb_nl_mom(kd, nd, i, F0, F1, F2, F3);
    break;
case GALE_NL_GRID:
    GALE_NL_FOR(i, i0, i1) gale_kb_nl_grid(kd, nd, i, F0, F1, F2, F3);
    break;
case GALE_NL_VORT:
    GALE_NL_FOR(i, i0, i1) gale_kb_nl_vort(kd, nd, i, F0, F1, F2);
    break;
case GALE_NL_TLIN:
    GALE_NL_FOR(i, i0, i1) gale_kb_nl_tlin(kd, nd, i, s0, F0, F1, F2, F3);
    break;
case GALE_NL_CORW:
    GALE_NL_FOR(i, i0, i1) gale_kb_nl_corw(kd, nd, i, F0, F1, F2, F3);
    break;
case GALE_NL_BUDGET:
    GALE_NL_FOR(i, i0, i1) gale_kb_nl_budget(kd, nd, i, F0, F1, F2, F3, F4, F5, F6, F7);
    break;
case GALE_NL_APVM:
    GALE_NL_FOR(i, i0, i1) gale_kb_nl_apvm(kd, nd, i, s0, F0, F1, F2, F3);
    break;
default: break;
}
