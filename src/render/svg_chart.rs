//! The thermal chart as an image: plotters draws an SVG (three panels on one
//! time axis, thermal events shaded, the slowdown onset marked) and resvg
//! turns the same SVG into a PNG. Both are pure Rust: no system graphics
//! libraries, only the system fonts for the labels.

use crate::calc::thermal::Analysis;
use crate::readings::samples::ThermalSample;
use crate::readings::samples::TrainSample;
use crate::render::chart::clock;
use plotters::prelude::*;

const WIDTH: u32 = 1100;

/// A panel: its title, its colour and its (seconds from start, value) points.
type Series<'a> = (&'a str, RGBColor, Vec<(f64, f64)>);
const HEIGHT: u32 = 780;

fn range(points: &[(f64, f64)]) -> (f64, f64) {
    let lo = points.iter().map(|p| p.1).fold(f64::INFINITY, f64::min);
    let hi = points.iter().map(|p| p.1).fold(f64::NEG_INFINITY, f64::max);
    // At least a tenth of the value's size, so noise stays noise.
    let span = (hi - lo).max(hi.abs() * 0.1).max(1.0);
    let mid = (hi + lo) / 2.0;
    (mid - span * 0.6, mid + span * 0.6)
}

/// The chart as an SVG document.
pub fn svg(
    thermal: &[ThermalSample],
    train: &[TrainSample],
    analysis: &Analysis,
    title: &str,
) -> Result<String, String> {
    let mut spans: Vec<(f64, f64)> = analysis.thermal_span.into_iter().collect();
    if !train.is_empty() && analysis.train_span.is_some() {
        spans.push((train[0].t, train[train.len() - 1].t));
    }
    let t0 = spans
        .iter()
        .map(|s| s.0)
        .reduce(f64::min)
        .ok_or("no samples to draw")?;
    let t1 = spans.iter().map(|s| s.1).fold(t0 + 1.0, f64::max);
    let series: Vec<Series> = vec![
        (
            "GPU temperature (°C)",
            RGBColor(200, 60, 40),
            thermal
                .iter()
                .filter_map(|s| s.temp_c.map(|v| (s.t - t0, v as f64)))
                .collect::<Vec<_>>(),
        ),
        (
            "GPU power (W)",
            RGBColor(40, 90, 200),
            thermal
                .iter()
                .filter_map(|s| s.power_w.map(|v| (s.t - t0, v as f64)))
                .collect(),
        ),
        (
            "step time (s/step)",
            RGBColor(30, 140, 70),
            train.iter().map(|s| (s.t - t0, s.sec_per_step)).collect(),
        ),
    ]
    .into_iter()
    .filter(|s| !s.2.is_empty())
    .collect();
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (WIDTH, HEIGHT)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        let root = root
            .titled(title, ("sans-serif", 22))
            .map_err(|e| e.to_string())?;
        let panels = root.split_evenly((series.len().max(1), 1));
        let span = t1 - t0;
        for (panel, (name, color, points)) in panels.iter().zip(&series) {
            let (lo, hi) = range(points);
            let mut chart = ChartBuilder::on(panel)
                .margin(12)
                .x_label_area_size(28)
                .y_label_area_size(60)
                .caption(*name, ("sans-serif", 16))
                .build_cartesian_2d(0.0..span, lo..hi)
                .map_err(|e| e.to_string())?;
            chart
                .configure_mesh()
                .x_labels(8)
                .y_labels(5)
                .x_label_formatter(&|x| clock(t0 + x))
                .draw()
                .map_err(|e| e.to_string())?;
            for e in &analysis.events {
                chart
                    .draw_series(std::iter::once(Rectangle::new(
                        [(e.start - t0, lo), (e.end - t0, hi)],
                        RGBColor(255, 200, 200).mix(0.6).filled(),
                    )))
                    .map_err(|e| e.to_string())?;
            }
            chart
                .draw_series(LineSeries::new(
                    points.iter().copied(),
                    color.stroke_width(2),
                ))
                .map_err(|e| e.to_string())?;
            if let Some(s) = &analysis.slowdown {
                chart
                    .draw_series(std::iter::once(PathElement::new(
                        vec![(s.onset - t0, lo), (s.onset - t0, hi)],
                        BLACK.stroke_width(2),
                    )))
                    .map_err(|e| e.to_string())?;
            }
        }
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(out)
}

/// The same SVG rendered to PNG bytes.
pub fn png(svg: &str) -> Result<Vec<u8>, String> {
    let mut options = resvg::usvg::Options::default();
    let db = options.fontdb_mut();
    db.load_system_fonts();
    // "sans-serif" maps to Arial by default, which Linux boxes rarely have.
    let available: Vec<String> = db
        .faces()
        .flat_map(|f| f.families.iter().map(|(name, _)| name.clone()))
        .collect();
    if let Some(family) = [
        "DejaVu Sans",
        "Liberation Sans",
        "Noto Sans",
        "Arial",
        "Helvetica",
    ]
    .iter()
    .find(|f| available.iter().any(|a| a == *f))
    {
        db.set_sans_serif_family(*family);
    }
    let tree = resvg::usvg::Tree::from_str(svg, &options).map_err(|e| e.to_string())?;
    let size = tree.size().to_int_size();
    let mut pixmap = resvg::tiny_skia::Pixmap::new(size.width(), size.height())
        .ok_or("the chart has no size")?;
    pixmap.fill(resvg::tiny_skia::Color::WHITE);
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::default(),
        &mut pixmap.as_mut(),
    );
    pixmap.encode_png().map_err(|e| e.to_string())
}
