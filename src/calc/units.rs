//! Byte units and the rounding rules for showing them.
//!
//! Plans are shown in decimal GB. A figure is rounded against the plan:
//! memory the run needs rounds up, memory the box has rounds down, so the
//! displayed numbers never make a plan look better than the arithmetic.

pub const GB: f64 = 1e9;
pub const GIB: f64 = 1_073_741_824.0;
pub const MIB: f64 = 1_048_576.0;
pub const KIB: f64 = 1024.0;

/// Hundredths of a GB, rounded up: memory a run needs.
pub fn centi_gb_up(bytes: f64) -> u64 {
    // The epsilon keeps exact products like 2.00 GB from rounding to 2.01.
    ((bytes / GB * 100.0) - 1e-9).ceil().max(0.0) as u64
}

/// Hundredths of a GB, rounded down: memory the box has.
pub fn centi_gb_down(bytes: f64) -> u64 {
    ((bytes / GB * 100.0) + 1e-9).floor().max(0.0) as u64
}

/// `1234` hundredths as "12.34".
pub fn show_centi(centi: u64) -> String {
    format!("{}.{:02}", centi / 100, centi % 100)
}

/// A signed difference of hundredths as "+1.20" / "-0.50".
pub fn show_centi_delta(delta: i64) -> String {
    let sign = if delta < 0 { "-" } else { "+" };
    format!("{sign}{}", show_centi(delta.unsigned_abs()))
}

/// A whole number with thousands separators: 68451041280 as "68,451,041,280".
pub fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A float without trailing zeros: 0.515875, 2, 1.073741824.
pub fn plain(v: f64) -> String {
    let s = format!("{v:.9}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    s.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounding_goes_against_the_plan() {
        assert_eq!(centi_gb_up(39_520_000_001.0), 3953);
        assert_eq!(centi_gb_up(2_000_000_000.0), 200);
        assert_eq!(centi_gb_down(123_480_000_000.0 - 1.0), 12347);
        assert_eq!(centi_gb_down(123_480_000_000.0), 12348);
    }

    #[test]
    fn shows_numbers_plainly() {
        assert_eq!(show_centi(1234), "12.34");
        assert_eq!(show_centi(5), "0.05");
        assert_eq!(show_centi_delta(-50), "-0.50");
        assert_eq!(show_centi_delta(120), "+1.20");
        assert_eq!(grouped(68_451_041_280), "68,451,041,280");
        assert_eq!(grouped(999), "999");
        assert_eq!(plain(0.515875), "0.515875");
        assert_eq!(plain(2.0), "2");
        assert_eq!(plain(1.073741824), "1.073741824");
    }
}
