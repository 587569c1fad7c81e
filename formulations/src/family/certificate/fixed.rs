//! Exact numbers of a dual certificate: decimals with [`PLACES`] fractional digits,
//! held as integer counts of `10^−PLACES`, and the exact rounding of a score (an IEEE
//! double, as every solver reads it) onto that grid.

use num_bigint::BigInt;
use num_traits::{ToPrimitive, Zero};
use std::fmt;

/// Fractional digits of a [`Fixed`] decimal.
pub const PLACES: u32 = 12;

/// `10^PLACES`, the number of grid steps in 1.
const SCALE: i128 = 1_000_000_000_000;

/// A decimal number with at most [`PLACES`] fractional digits, exactly: the integer
/// count of `10^−PLACES` it is made of.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Fixed(pub i128);

/// Why a text is not a [`Fixed`] decimal.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum FixedError {
    /// Not of the form `[-]digits[.digits]`.
    #[error("`{0}` is not a decimal number (digits, an optional sign and point, no exponent)")]
    Syntax(String),
    /// More fractional digits than [`PLACES`].
    #[error("`{0}` has more than {PLACES} digits after the point")]
    TooPrecise(String),
    /// Beyond the range of a 128-bit count of `10^−PLACES`.
    #[error("`{0}` is too large")]
    TooLarge(String),
}

impl Fixed {
    /// Zero.
    pub const ZERO: Fixed = Fixed(0);

    /// One.
    pub const ONE: Fixed = Fixed(SCALE);

    /// The decimal nearest to `x` on the grid, or `None` when `x` is not finite or out
    /// of range.
    pub fn nearest(x: f64) -> Option<Fixed> {
        let scaled = (x * SCALE as f64).round();
        (scaled.is_finite() && scaled.abs() < 1e36).then_some(Fixed(scaled as i128))
    }

    /// `self + other`, or `None` on overflow.
    pub fn checked_add(self, other: Fixed) -> Option<Fixed> {
        self.0.checked_add(other.0).map(Fixed)
    }

    /// `self − other`, or `None` on overflow.
    pub fn checked_sub(self, other: Fixed) -> Option<Fixed> {
        self.0.checked_sub(other.0).map(Fixed)
    }

    /// The value as a float (for messages; rounded).
    pub fn to_f64(self) -> f64 {
        self.0 as f64 / SCALE as f64
    }

    /// One millionth, the tolerance of a certificate (see [`super::TOLERANCE`]).
    pub const fn micro() -> Fixed {
        Fixed(SCALE / 1_000_000)
    }

    /// Parses `[-]digits[.digits]` with at most [`PLACES`] fractional digits.
    pub fn parse(text: &str) -> Result<Fixed, FixedError> {
        let syntax = || FixedError::Syntax(text.to_string());
        let (negative, body) = match text.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, text),
        };
        let (whole, fraction) = body.split_once('.').unwrap_or((body, ""));
        let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
        if whole.is_empty() || !digits(whole) || !digits(fraction) || body.ends_with('.') {
            return Err(syntax());
        }
        if fraction.len() > PLACES as usize {
            return Err(FixedError::TooPrecise(text.to_string()));
        }
        let padded = format!("{whole}{fraction:0<width$}", width = PLACES as usize);
        let count: i128 = padded
            .parse()
            .map_err(|_| FixedError::TooLarge(text.to_string()))?;
        Ok(Fixed(if negative { -count } else { count }))
    }
}

impl fmt::Display for Fixed {
    /// The exact decimal, with all [`PLACES`] fractional digits.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.0 < 0 { "-" } else { "" };
        let magnitude = self.0.unsigned_abs();
        let scale = SCALE as u128;
        write!(
            f,
            "{sign}{}.{:0width$}",
            magnitude / scale,
            magnitude % scale,
            width = PLACES as usize
        )
    }
}

/// A sum of doubles, exactly: `mantissa · 2^exponent`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExactSum {
    mantissa: BigInt,
    exponent: i32,
}

impl ExactSum {
    /// The empty sum.
    pub fn zero() -> Self {
        ExactSum {
            mantissa: BigInt::zero(),
            exponent: 0,
        }
    }

    /// The double `x` exactly (`x` finite).
    pub fn of(x: f64) -> Self {
        let mut sum = ExactSum::zero();
        sum.add(x);
        sum
    }

    /// Adds the double `x` (finite) exactly.
    pub fn add(&mut self, x: f64) {
        let (mantissa, exponent) = decompose(x);
        let (mut a, mut b) = (self.mantissa.clone(), BigInt::from(mantissa));
        let low = self.exponent.min(exponent);
        a <<= (self.exponent - low) as usize;
        b <<= (exponent - low) as usize;
        self.mantissa = a + b;
        self.exponent = low;
    }

    /// `⌈sum · 10^PLACES⌉` on the grid, or `None` when out of range.
    pub fn ceil_fixed(&self) -> Option<Fixed> {
        self.scaled_rounded(true)
    }

    /// `⌊sum · 10^PLACES⌋` on the grid, or `None` when out of range.
    pub fn floor_fixed(&self) -> Option<Fixed> {
        self.scaled_rounded(false)
    }

    fn scaled_rounded(&self, up: bool) -> Option<Fixed> {
        let scaled = &self.mantissa * BigInt::from(SCALE);
        let value = if self.exponent >= 0 {
            scaled << self.exponent as usize
        } else {
            let divisor = BigInt::from(1) << (-self.exponent) as usize;
            let floor = floor_div(&scaled, &divisor);
            let exact = &floor * &divisor == scaled;
            if up && !exact {
                floor + 1
            } else {
                floor
            }
        };
        value.to_i128().map(Fixed)
    }
}

/// `⌊a / b⌋` for `b > 0`.
fn floor_div(a: &BigInt, b: &BigInt) -> BigInt {
    let q = a / b;
    if a.sign() == num_bigint::Sign::Minus && &q * b != *a {
        q - 1
    } else {
        q
    }
}

/// `x = mantissa · 2^exponent` exactly, for a finite double.
fn decompose(x: f64) -> (i64, i32) {
    if x == 0.0 {
        return (0, 0);
    }
    let bits = x.to_bits();
    let sign = if bits >> 63 == 0 { 1 } else { -1 };
    let biased = ((bits >> 52) & 0x7ff) as i32;
    let fraction = (bits & ((1u64 << 52) - 1)) as i64;
    let (mantissa, exponent) = if biased == 0 {
        (fraction, -1074)
    } else {
        (fraction | (1i64 << 52), biased - 1075)
    };
    (sign * mantissa, exponent)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimals_parse_and_print_exactly() {
        for (text, count) in [
            ("0", 0),
            ("1.5", 1_500_000_000_000),
            ("-0.000000000001", -1),
            ("-12.25", -12_250_000_000_000),
        ] {
            assert_eq!(Fixed::parse(text), Ok(Fixed(count)));
        }
        assert_eq!(Fixed(-1).to_string(), "-0.000000000001");
        assert_eq!(Fixed(1_500_000_000_000).to_string(), "1.500000000000");
        let printed = Fixed(-123_456_789_012_345).to_string();
        assert_eq!(Fixed::parse(&printed), Ok(Fixed(-123_456_789_012_345)));
        for bad in ["", "-", "1.", ".5", "1e3", "+1", "1.2.3", "0x1"] {
            assert!(
                matches!(Fixed::parse(bad), Err(FixedError::Syntax(_))),
                "{bad}"
            );
        }
        assert!(matches!(
            Fixed::parse("0.0000000000001"),
            Err(FixedError::TooPrecise(_))
        ));
        assert!(matches!(
            Fixed::parse(&"9".repeat(60)),
            Err(FixedError::TooLarge(_))
        ));
    }

    #[test]
    fn doubles_round_onto_the_grid_exactly() {
        // 0.1 as a double is slightly above 1/10: its ceiling is one step above.
        assert_eq!(
            ExactSum::of(0.1).floor_fixed(),
            Some(Fixed(100_000_000_000))
        );
        assert_eq!(ExactSum::of(0.1).ceil_fixed(), Some(Fixed(100_000_000_001)));
        assert_eq!(
            ExactSum::of(-0.1).ceil_fixed(),
            Some(Fixed(-100_000_000_000))
        );
        assert_eq!(
            ExactSum::of(-0.1).floor_fixed(),
            Some(Fixed(-100_000_000_001))
        );
        assert_eq!(
            ExactSum::of(-2.5).ceil_fixed(),
            Some(Fixed(-2_500_000_000_000))
        );
        assert_eq!(ExactSum::of(1e-300).ceil_fixed(), Some(Fixed(1)));
        assert_eq!(ExactSum::of(1e-300).floor_fixed(), Some(Fixed(0)));
        assert_eq!(
            ExactSum::of(1e13).floor_fixed(),
            Some(Fixed(10i128.pow(25)))
        );
    }

    #[test]
    fn sums_are_exact_where_floats_round() {
        let mut sum = ExactSum::zero();
        for x in [0.1, 0.2, -0.3] {
            sum.add(x);
        }
        // 0.1 + 0.2 − 0.3 in exact double values is 2^−55 · 1, not 0 and not the float sum.
        assert_eq!(sum.floor_fixed(), Some(Fixed(0)));
        assert_eq!(sum.ceil_fixed(), Some(Fixed(1)));
        assert_ne!(sum, ExactSum::zero());
    }
}
