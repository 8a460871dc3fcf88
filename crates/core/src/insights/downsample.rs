//! Fewer points to draw: a series mapped to pixels keeps, per pixel column, only its lowest
//! and highest point (in their order), so 10,000 points become at most two per column and
//! every peak and trough still shows. One pass, O(n).

use super::scale::LinearScale;

/// `points` (x ascending) in pixels through the two scales.
pub fn to_pixels(points: &[(f64, f64)], x: &LinearScale, y: &LinearScale) -> Vec<(f64, f64)> {
    points
        .iter()
        .map(|&(px, py)| (x.map(px), y.map(py)))
        .collect()
}

/// The lowest and highest point of each pixel column of `pixels` (x ascending), in the
/// order they came, with the very first and last points kept so the line spans the whole
/// series.
pub fn downsample(pixels: &[(f64, f64)]) -> Vec<(f64, f64)> {
    let n = pixels.len();
    if n <= 2 {
        return pixels.to_vec();
    }
    let mut out = Vec::with_capacity(n.min(1024));
    out.push(pixels[0]);
    let mut column = 1;
    while column < n - 1 {
        let col = pixels[column].0.floor();
        let (mut lo, mut hi) = (column, column);
        let mut end = column;
        while end < n - 1 && pixels[end].0.floor() == col {
            if pixels[end].1 < pixels[lo].1 {
                lo = end;
            }
            if pixels[end].1 > pixels[hi].1 {
                hi = end;
            }
            end += 1;
        }
        let (first, second) = (lo.min(hi), lo.max(hi));
        out.push(pixels[first]);
        if second != first {
            out.push(pixels[second]);
        }
        column = end;
    }
    out.push(pixels[n - 1]);
    out
}

/// The indexes of `xs` (ascending, in drawing units) a stacked step chart needs at
/// `per_unit` columns a unit: the first and the last point of each column. What changed
/// between them, inside one column, is finer than the drawing shows; the steps between
/// columns stay exact. A burn-up of 10,000 tasks has some 30,000 moments; drawn 720 units
/// wide it needs at most 2,880.
pub fn column_ends(xs: &[f64], per_unit: f64) -> Vec<usize> {
    let column = |x: f64| (x * per_unit).floor();
    let n = xs.len();
    (0..n)
        .filter(|&i| {
            let c = column(xs[i]);
            i == 0 || i == n - 1 || column(xs[i - 1]) != c || column(xs[i + 1]) != c
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_column_keeps_its_first_and_last_points() {
        let xs = [0.0, 0.2, 0.4, 0.9, 1.0, 1.5, 3.2, 3.3];
        assert_eq!(column_ends(&xs, 1.0), [0, 3, 4, 5, 6, 7]);
        // Two columns a unit: 1.0 and 1.5 fall apart.
        assert_eq!(column_ends(&xs, 2.0), [0, 2, 3, 4, 5, 6, 7]);
    }

    #[test]
    fn few_or_sparse_points_are_all_kept() {
        assert!(column_ends(&[], 1.0).is_empty());
        assert_eq!(column_ends(&[4.0], 1.0), [0]);
        assert_eq!(column_ends(&[1.0, 2.0, 3.0], 1.0), [0, 1, 2]);
        let dense: Vec<f64> = (0..10_000).map(|i| f64::from(i) * 0.01).collect();
        assert_eq!(column_ends(&dense, 1.0).len(), 200);
    }

    #[test]
    fn each_column_keeps_its_extremes_in_order() {
        let pixels = [
            (0.0, 5.0),
            (1.1, 3.0),
            (1.5, 9.0),
            (1.9, 1.0),
            (1.95, 4.0),
            (2.2, 6.0),
            (3.0, 2.0),
        ];
        assert_eq!(
            downsample(&pixels),
            [(0.0, 5.0), (1.5, 9.0), (1.9, 1.0), (2.2, 6.0), (3.0, 2.0)]
        );
    }

    #[test]
    fn few_points_pass_through() {
        assert!(downsample(&[]).is_empty());
        assert_eq!(downsample(&[(1.0, 2.0)]), [(1.0, 2.0)]);
        assert_eq!(
            downsample(&[(1.0, 2.0), (1.2, 3.0)]),
            [(1.0, 2.0), (1.2, 3.0)]
        );
    }

    #[test]
    fn ten_thousand_points_become_two_per_column() {
        let points: Vec<(f64, f64)> = (0..10_000)
            .map(|i| (i as f64, ((i * 7919) % 1000) as f64))
            .collect();
        let x = LinearScale::new((0.0, 9_999.0), (0.0, 600.0));
        let y = LinearScale::new((0.0, 1_000.0), (300.0, 0.0));
        let pixels = to_pixels(&points, &x, &y);
        let drawn = downsample(&pixels);
        assert!(drawn.len() <= 2 * 601 + 2, "{}", drawn.len());
        assert_eq!(drawn.first(), pixels.first());
        assert_eq!(drawn.last(), pixels.last());
        // Every column's extremes survive.
        let top = pixels.iter().map(|p| p.1).fold(f64::INFINITY, f64::min);
        assert!(drawn.iter().any(|p| p.1 == top));
    }
}
