// Arithmetic on times and counts that a caller may push past an integer's bounds (`.seconds(.max)`, a clock at
// `Date.distantFuture`): each stops at the bound instead of trapping, which is as good as forever for a time.

extension FixedWidthInteger {
    /// `self + other`, stopping at the type's bounds.
    @inlinable
    package func saturatingAdding(_ other: Self) -> Self {
        let (sum, overflow) = addingReportingOverflow(other)
        guard overflow else { return sum }
        return other > 0 ? .max : .min
    }

    /// `self - other`, stopping at the type's bounds.
    @inlinable
    package func saturatingSubtracting(_ other: Self) -> Self {
        let (difference, overflow) = subtractingReportingOverflow(other)
        guard overflow else { return difference }
        return other < 0 ? .max : .min
    }

    /// `self * other`, stopping at the type's bounds.
    @inlinable
    package func saturatingMultiplied(by other: Self) -> Self {
        let (product, overflow) = multipliedReportingOverflow(by: other)
        guard overflow else { return product }
        return (self < 0) == (other < 0) ? .max : .min
    }

    /// `value` truncated towards zero, stopping at the type's bounds; 0 for NaN.
    @inlinable
    package init(saturating value: Double) {
        if value.isNaN {
            self = 0
        } else if value >= Double(Self.max) {
            self = .max
        } else if value <= Double(Self.min) {
            self = .min
        } else {
            self.init(value)
        }
    }
}
