//! The figures of a study report, as SVG text: Dolan-Moré performance profiles and
//! time-versus-time scatter plots (plotters' SVG back-end; no fonts or Python needed).

use plotters::prelude::*;

/// Line colours, in method order.
const PALETTE: [RGBColor; 8] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
];

/// A performance profile (Dolan & Moré 2002): for each method, the fraction of problems
/// it solves within a factor τ of the best method's time on that problem, against
/// log₂ τ. `ratios` holds, per method, its ratio on every problem (∞ where it did not
/// solve it).
pub fn performance_profile(title: &str, ratios: &[(String, Vec<f64>)]) -> Result<String, String> {
    let finite_max = ratios
        .iter()
        .flat_map(|(_, r)| r.iter().copied())
        .filter(|r| r.is_finite())
        .fold(1.0f64, f64::max);
    let x_max = (finite_max.log2() * 1.1).max(1.0);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (720, 480)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 20))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(50)
            .build_cartesian_2d(0.0..x_max, 0.0..1.02)
            .map_err(|e| e.to_string())?;
        chart
            .configure_mesh()
            .x_desc("log2 of the time ratio to the best method (τ)")
            .y_desc("fraction of problems solved")
            .draw()
            .map_err(|e| e.to_string())?;
        for (i, (name, method_ratios)) in ratios.iter().enumerate() {
            let colour = PALETTE[i % PALETTE.len()];
            let steps = profile_steps(method_ratios, x_max);
            chart
                .draw_series(LineSeries::new(steps, colour.stroke_width(2)))
                .map_err(|e| e.to_string())?
                .label(name.as_str())
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 18, y)], colour.stroke_width(2))
                });
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::LowerRight)
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .draw()
            .map_err(|e| e.to_string())?;
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(svg)
}

/// The corners of one method's profile, a step function of log₂ τ from 0 to `x_max`.
fn profile_steps(ratios: &[f64], x_max: f64) -> Vec<(f64, f64)> {
    let n = ratios.len().max(1) as f64;
    let mut solved: Vec<f64> = ratios.iter().copied().filter(|r| r.is_finite()).collect();
    solved.sort_by(f64::total_cmp);
    let mut points = vec![(0.0, 0.0)];
    let mut level = 0.0;
    for (k, r) in solved.iter().enumerate() {
        let x = r.max(1.0).log2();
        points.push((x, level));
        level = (k + 1) as f64 / n;
        points.push((x, level));
    }
    points.push((x_max, level));
    points
}

/// A scatter plot of two methods' times on the same problems, log-log, with the
/// diagonal: points below it are problems where `y_name` was faster. A run that did not
/// solve its problem is drawn at the time limit `limit`, hollow.
pub fn time_scatter(
    x_name: &str,
    y_name: &str,
    points: &[(f64, f64)],
    limit: f64,
) -> Result<String, String> {
    let low = points
        .iter()
        .flat_map(|&(x, y)| [x, y])
        .fold(limit, f64::min)
        .max(1e-3)
        / 1.5;
    let high = limit * 1.5;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (560, 560)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        let mut chart = ChartBuilder::on(&root)
            .caption(
                format!("{y_name} vs {x_name}: wall time (s)"),
                ("sans-serif", 18),
            )
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(50)
            .build_cartesian_2d((low..high).log_scale(), (low..high).log_scale())
            .map_err(|e| e.to_string())?;
        chart
            .configure_mesh()
            .x_desc(format!("{x_name} (s)"))
            .y_desc(format!("{y_name} (s)"))
            .draw()
            .map_err(|e| e.to_string())?;
        chart
            .draw_series(LineSeries::new(
                vec![(low, low), (high, high)],
                BLACK.mix(0.4),
            ))
            .map_err(|e| e.to_string())?;
        chart
            .draw_series(LineSeries::new(
                vec![(low, limit), (high, limit)],
                RED.mix(0.3),
            ))
            .map_err(|e| e.to_string())?;
        chart
            .draw_series(LineSeries::new(
                vec![(limit, low), (limit, high)],
                RED.mix(0.3),
            ))
            .map_err(|e| e.to_string())?;
        let colour = PALETTE[0];
        chart
            .draw_series(points.iter().map(|&(x, y)| {
                let capped = x >= limit || y >= limit;
                let style = if capped {
                    colour.stroke_width(1)
                } else {
                    colour.filled()
                };
                Circle::new((x.min(limit), y.min(limit)), 4, style)
            }))
            .map_err(|e| e.to_string())?;
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(svg)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_profile_steps_up_once_per_solved_problem() {
        let steps = profile_steps(&[1.0, 2.0, f64::INFINITY, 4.0], 3.0);
        assert_eq!(steps.first(), Some(&(0.0, 0.0)));
        assert_eq!(steps.last(), Some(&(3.0, 0.75)));
        let levels: Vec<f64> = steps.iter().map(|p| p.1).collect();
        assert!(levels.windows(2).all(|w| w[0] <= w[1]));
    }

    #[test]
    fn the_figures_are_svg_with_their_names() {
        let ratios = vec![
            ("scip".to_string(), vec![1.0, 1.0, 3.0]),
            ("highs".to_string(), vec![2.0, f64::INFINITY, 1.0]),
        ];
        let svg = performance_profile("profile", &ratios).expect("draws");
        assert!(svg.starts_with("<svg") && svg.contains("scip") && svg.contains("highs"));
        let svg = time_scatter("scip", "highs", &[(0.5, 2.0), (60.0, 3.0)], 60.0).expect("draws");
        assert!(svg.contains("<circle") && svg.contains("highs vs scip"));
    }
}
