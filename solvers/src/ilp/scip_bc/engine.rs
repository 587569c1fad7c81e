//! The state shared by the SCIP plugins of one branch-and-cut solve: the program, the
//! SCIP variables of its family columns, the cluster cuts added so far, and the
//! progress callback.

use super::root_stall::RootStall;
use super::ScipBcSettings;
use crate::ilp::{IlpOptions, IlpProgress};
use crate::milp::finite;
use bnsl_formulations::family::arrows::ArrowLinks;
use bnsl_formulations::family::four_b::{FourBCut, FOUR_B_UPPER};
use bnsl_formulations::family::k_cluster::KClusterCut;
use bnsl_formulations::{ClusterCut, Dag, FamilyIlp, VarSet};
use russcip::ffi;
use rustc_hash::FxHashSet;
use std::cell::RefCell;
use std::ffi::CString;
use std::rc::Rc;

/// The engine state, shared by the constraint handler, separator, heuristic and event
/// handler of one solve.
pub(super) type Shared = Rc<RefCell<Engine>>;

/// The arrow and adjacency variables of a problem, when it has them: what they link,
/// and their original SCIP variables, arrows then adjacencies.
pub(super) type LinkPointers = Option<(ArrowLinks, Vec<*mut ffi::SCIP_VAR>)>;

/// The values of `dag`'s solution: its family columns, then, when `links` are given,
/// its arrows and adjacencies; `None` when a parent set of `dag` is not a candidate.
pub(super) fn dag_values(
    ilp: &FamilyIlp<'_>,
    links: Option<&ArrowLinks>,
    dag: &Dag,
) -> Option<Vec<f64>> {
    let mut values = ilp.values_of(dag)?;
    if let Some(links) = links {
        values.extend(links.values_of(dag));
    }
    Some(values)
}

/// SCIP's time limit in seconds of solving time (`None`: no limit).
pub(super) fn time_limit(scip: *mut ffi::SCIP) -> Result<Option<f64>, ScipCallFailed> {
    let mut limit = 0.0;
    // SAFETY: a parameter query on the live instance.
    check(unsafe { ffi::SCIPgetRealParam(scip, c"limits/time".as_ptr(), &mut limit) })?;
    Ok(finite(limit))
}

/// A solution as SCIP variables and their values, in the same order.
pub(super) type SolutionValues = (Vec<*mut ffi::SCIP_VAR>, Vec<f64>);

/// A SCIP call failed inside a callback; the code is handed back to SCIP.
#[derive(Debug)]
pub(crate) struct ScipCallFailed(pub ffi::SCIP_RETCODE);

/// Turns a SCIP return code into a `Result`.
pub(crate) fn check(code: ffi::SCIP_RETCODE) -> Result<(), ScipCallFailed> {
    if code == ffi::SCIP_Retcode_SCIP_OKAY {
        Ok(())
    } else {
        Err(ScipCallFailed(code))
    }
}

/// See the module documentation.
pub(super) struct Engine {
    /// The program. Its lifetime is erased: the engine lives inside the SCIP instance,
    /// which [`super::ScipBranchAndCut::solve`] frees before it returns.
    pub ilp: FamilyIlp<'static>,
    /// The SCIP variables of the family columns.
    family: Twins,
    /// The arrow and adjacency variables and their SCIP variables, when the problem
    /// has them ([`ScipBcSettings::arrow_branching`]).
    links: Option<(ArrowLinks, Twins)>,
    /// The clusters whose constraint was added.
    pub clusters: FxHashSet<VarSet>,
    /// The node sets and k of the k-cluster constraints added.
    pub k_clusters: FxHashSet<(VarSet, usize)>,
    /// The nodes of the 4B inequalities added ([`FourBCut::nodes`]).
    pub four_bs: FxHashSet<[usize; 4]>,
    /// Whether the separator adds 4B inequalities ([`ScipBcSettings::four_b_cuts`],
    /// resolved for this table).
    pub four_b_cuts: bool,
    /// Separation and heuristic settings.
    pub options: IlpOptions,
    /// Engine settings.
    pub settings: ScipBcSettings,
    /// Called whenever incumbent or bound improve (lifetime erased as for `ilp`).
    progress: &'static dyn Fn(&IlpProgress),
    /// The last snapshot reported.
    last: IlpProgress,
    /// The constraint handler that owns the cut rows (set when it is included).
    pub conshdlr: *mut ffi::SCIP_CONSHDLR,
    /// Reusable buffer for column values.
    values: Vec<f64>,
    /// The start DAG while it is held back for the first node below the root (see
    /// `plugins::StartHeuristic`).
    pub pending_start: Option<Dag>,
    /// Whether the start heuristic still runs the ASOBS search of
    /// [`ScipBcSettings::deep_tree_start`] at the first node below the root (no start
    /// is held back).
    pub pending_search: bool,
    /// The rule that ends the root of a large table when its bound stalls.
    pub root_stall: Option<RootStall>,
}

impl Engine {
    /// A new engine.
    ///
    /// # Safety
    /// `ilp` and `progress` must outlive every use of the engine: the caller frees the
    /// SCIP instance holding it before they go out of scope.
    pub(super) unsafe fn new(
        ilp: &FamilyIlp<'_>,
        original: Vec<*mut ffi::SCIP_VAR>,
        links: LinkPointers,
        options: &IlpOptions,
        settings: &ScipBcSettings,
        four_b_cuts: bool,
        progress: &dyn Fn(&IlpProgress),
    ) -> Self {
        // SAFETY: lifetimes only; the caller guarantees the referents outlive the engine.
        let ilp: FamilyIlp<'static> = unsafe { std::mem::transmute(ilp.clone()) };
        let progress: &'static dyn Fn(&IlpProgress) = unsafe { std::mem::transmute(progress) };
        Engine {
            ilp,
            family: Twins::new(original),
            links: links.map(|(links, original)| (links, Twins::new(original))),
            clusters: FxHashSet::default(),
            k_clusters: FxHashSet::default(),
            four_bs: FxHashSet::default(),
            four_b_cuts,
            options: options.clone(),
            settings: settings.clone(),
            progress,
            last: IlpProgress::default(),
            conshdlr: std::ptr::null_mut(),
            values: Vec::new(),
            pending_start: None,
            pending_search: false,
            root_stall: None,
        }
    }

    /// The transformed variables of the family columns (solving stage only).
    pub(super) fn transformed(
        &mut self,
        scip: *mut ffi::SCIP,
    ) -> Result<&mut [*mut ffi::SCIP_VAR], ScipCallFailed> {
        self.family.transformed(scip)
    }

    /// Whether the problem has arrow and adjacency variables besides the family columns.
    pub(super) fn has_links(&self) -> bool {
        self.links.is_some()
    }

    /// The transformed variables of `dag`'s solution and its values ([`dag_values`]):
    /// the family columns, then the arrow and adjacency variables when there are any;
    /// `None` when a parent set of `dag` is not a candidate.
    pub(super) fn solution_of(
        &mut self,
        scip: *mut ffi::SCIP,
        dag: &Dag,
    ) -> Result<Option<SolutionValues>, ScipCallFailed> {
        let links = self.links.as_ref().map(|(links, _)| links);
        let Some(values) = dag_values(&self.ilp, links, dag) else {
            return Ok(None);
        };
        let mut vars = self.family.transformed(scip)?.to_vec();
        if let Some((_, twins)) = &mut self.links {
            vars.extend_from_slice(twins.transformed(scip)?);
        }
        Ok(Some((vars, values)))
    }

    /// The column values of `sol` (null: the current LP or pseudo solution).
    pub(super) fn values(
        &mut self,
        scip: *mut ffi::SCIP,
        sol: *mut ffi::SCIP_SOL,
    ) -> Result<Vec<f64>, ScipCallFailed> {
        let mut values = std::mem::take(&mut self.values);
        values.resize(self.family.original.len(), 0.0);
        // SAFETY: `sol` is null or a live solution of `scip`.
        let original = !sol.is_null() && unsafe { ffi::SCIPsolIsOriginal(sol) } != 0;
        let vars = if original {
            self.family.original.as_mut_ptr()
        } else {
            self.family.transformed(scip)?.as_mut_ptr()
        };
        let n = i32::try_from(values.len()).expect("column count fits in an int");
        // SAFETY: `vars` and `values` hold `n` entries.
        check(unsafe { ffi::SCIPgetSolVals(scip, sol, n, vars, values.as_mut_ptr()) })?;
        // LP values may leave [0, 1] by the solver's tolerance.
        for x in &mut values {
            *x = x.clamp(0.0, 1.0);
        }
        Ok(values)
    }

    /// Gives a value buffer back for reuse.
    pub(super) fn recycle(&mut self, values: Vec<f64>) {
        self.values = values;
    }

    /// Adds `cut` as a global row of the LP (and to the global cut pool). Returns
    /// whether the row proved the node infeasible.
    pub(super) fn add_cut(
        &mut self,
        scip: *mut ffi::SCIP,
        cut: &ClusterCut,
        force: bool,
    ) -> Result<bool, ScipCallFailed> {
        let name = format!("cluster_{}", self.clusters.len());
        let (lower, upper) = cut.bounds();
        let infeasible = self.add_row(scip, &name, &cut.columns, lower, upper, force)?;
        self.clusters.insert(cut.cluster.clone());
        Ok(infeasible)
    }

    /// Adds `cut` as [`Engine::add_cut`] adds a cluster cut.
    pub(super) fn add_k_cluster_cut(
        &mut self,
        scip: *mut ffi::SCIP,
        cut: &KClusterCut,
    ) -> Result<bool, ScipCallFailed> {
        let name = format!("k_cluster_{}", self.k_clusters.len());
        let infeasible = self.add_at_most(scip, &name, &cut.columns, cut.upper())?;
        self.k_clusters.insert((cut.cluster.clone(), cut.k));
        Ok(infeasible)
    }

    /// Adds `cut` as [`Engine::add_cut`] adds a cluster cut.
    pub(super) fn add_four_b_cut(
        &mut self,
        scip: *mut ffi::SCIP,
        cut: &FourBCut,
    ) -> Result<bool, ScipCallFailed> {
        let name = format!("four_b_{}", self.four_bs.len());
        let infeasible = self.add_at_most(scip, &name, &cut.columns, FOUR_B_UPPER)?;
        self.four_bs.insert(cut.nodes);
        Ok(infeasible)
    }

    /// The number of cuts added: cluster, k-cluster and 4B cuts.
    pub(super) fn cut_count(&self) -> usize {
        self.clusters.len() + self.k_clusters.len() + self.four_bs.len()
    }

    /// Adds the row `Σ columns ≤ upper` as [`Engine::add_row`], not forced.
    fn add_at_most(
        &mut self,
        scip: *mut ffi::SCIP,
        name: &str,
        columns: &[usize],
        upper: f64,
    ) -> Result<bool, ScipCallFailed> {
        self.add_row(scip, name, columns, f64::NEG_INFINITY, upper, false)
    }

    /// Adds the row `lower ≤ Σ columns ≤ upper` (unit coefficients) to the LP and the
    /// global cut pool; returns whether it proved the node infeasible.
    fn add_row(
        &mut self,
        scip: *mut ffi::SCIP,
        name: &str,
        columns: &[usize],
        lower: f64,
        upper: f64,
        force: bool,
    ) -> Result<bool, ScipCallFailed> {
        let name = CString::new(name).expect("no NUL in a generated name");
        let mut row = std::ptr::null_mut();
        let removable = u32::from(self.settings.removable_cuts);
        // SAFETY: plain SCIP calls in the solving stage on live objects; the row is
        // released before returning.
        unsafe {
            check(ffi::SCIPcreateEmptyRowConshdlr(
                scip,
                &mut row,
                self.conshdlr,
                name.as_ptr(),
                lower.max(-ffi::SCIPinfinity(scip)),
                upper.min(ffi::SCIPinfinity(scip)),
                0,
                0,
                removable,
            ))?;
            let vars = self.transformed(scip)?;
            let mut cols: Vec<*mut ffi::SCIP_VAR> = columns.iter().map(|&c| vars[c]).collect();
            let n = i32::try_from(cols.len()).expect("cut size fits in an int");
            check(ffi::SCIPaddVarsToRowSameCoef(
                scip,
                row,
                n,
                cols.as_mut_ptr(),
                1.0,
            ))?;
            super::handler::add_global_row(scip, row, force)
        }
    }

    /// Calls the progress callback when incumbent or bound changed since the last call.
    pub(super) fn report(&mut self, scip: *mut ffi::SCIP) {
        // A stopped solve (time limit, interrupt) reports its primal bound as its dual
        // bound while it frees its tree: not a bound to show.
        // SAFETY: a query on a live instance.
        if unsafe { ffi::SCIPisStopped(scip) } != 0 {
            return;
        }
        // SAFETY: statistics queries on a live instance in the solving stage.
        let (primal, dual, nodes) = unsafe {
            (
                ffi::SCIPgetPrimalbound(scip),
                ffi::SCIPgetDualbound(scip),
                ffi::SCIPgetNTotalNodes(scip),
            )
        };
        let now = IlpProgress {
            incumbent: finite(primal),
            bound: finite(dual),
            cuts: self.cut_count() as u64,
            nodes: u64::try_from(nodes).unwrap_or(0),
            rounds: 0,
        };
        if now.incumbent != self.last.incumbent || now.bound != self.last.bound {
            (self.progress)(&now);
            self.last = now;
        }
    }
}

/// Original SCIP variables and their transformed twins, looked up on first use (in the
/// solving stage).
struct Twins {
    original: Vec<*mut ffi::SCIP_VAR>,
    transformed: Vec<*mut ffi::SCIP_VAR>,
}

impl Twins {
    fn new(original: Vec<*mut ffi::SCIP_VAR>) -> Self {
        Twins {
            original,
            transformed: Vec::new(),
        }
    }

    /// The transformed variables, in the order of the original ones.
    fn transformed(
        &mut self,
        scip: *mut ffi::SCIP,
    ) -> Result<&mut [*mut ffi::SCIP_VAR], ScipCallFailed> {
        if self.transformed.len() < self.original.len() {
            let mut all = Vec::with_capacity(self.original.len());
            for &var in &self.original {
                let mut t = std::ptr::null_mut();
                // SAFETY: `var` is a live original variable of `scip`.
                check(unsafe { ffi::SCIPgetTransformedVar(scip, var, &mut t) })?;
                all.push(t);
            }
            self.transformed = all;
        }
        Ok(&mut self.transformed)
    }
}
