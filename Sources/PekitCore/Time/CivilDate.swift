/// The proleptic Gregorian calendar in UTC (Howard Hinnant's days_from_civil and civil_from_days),
/// for cookie dates and timestamps alike.
enum CivilDate {
    /// Days since 1970-01-01 of a date.
    static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146097 + doe - 719468
    }

    /// The date of a day number.
    static func date(ofDay z: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = z + 719468
        let era = (shifted >= 0 ? shifted : shifted - 146096) / 146097
        let doe = shifted - era * 146097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }

    /// The day of `seconds` since 1970 and the seconds into it.
    static func split(_ seconds: Int64) -> (day: Int, second: Int) {
        let day = Int(seconds >= 0 ? seconds / 86400 : (seconds - 86399) / 86400)
        return (day, Int(seconds - Int64(day) * 86400))
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}
