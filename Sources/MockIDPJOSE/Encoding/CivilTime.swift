/// Calendar arithmetic for UTC dates, without Foundation or the C library's time zone state.
enum CivilTime {
    /// Seconds since 1970-01-01T00:00:00Z for a proleptic Gregorian UTC date and time
    /// (Howard Hinnant's `days_from_civil`).
    static func unixSeconds(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * ((month + 9) % 12) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return days * 86_400 + hour * 3_600 + minute * 60 + second
    }
}
