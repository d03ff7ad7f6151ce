/// The announcement as a short text an owner's app posts (to Instagram, a message): English, with the
/// measures in metric units, as the app's other texts.
enum ArrivalShareText {
    private static let months = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
        "November", "December",
    ]

    /// "Welcome to the world, Lily! Born on 3 May 2026 at 14:05, 3.45 kg, 51 cm." then the message, if any.
    static func of(_ arrival: StoredArrival) -> String {
        let d = arrival.details
        var born = "Born on \(d.birthDate.day) \(months[d.birthDate.month - 1]) \(d.birthDate.year)"
        if let time = d.birthTime { born += " at \(time)" }
        var facts = [born]
        if let grams = d.weightGrams { facts.append("\(kilograms(grams)) kg") }
        if let length = d.lengthMM { facts.append("\(centimetres(length)) cm") }
        let text = "Welcome to the world, \(arrival.name)! \(facts.joined(separator: ", "))."
        return d.message.isEmpty ? text : "\(text)\n\n\(d.message)"
    }

    /// 3450 → "3.45", 3400 → "3.4", 3000 → "3".
    static func kilograms(_ grams: Int) -> String { decimal(grams, places: 3) }

    /// 515 → "51.5", 510 → "51".
    static func centimetres(_ millimetres: Int) -> String { decimal(millimetres, places: 1) }

    /// `value` / 10^places, without trailing zeros.
    private static func decimal(_ value: Int, places: Int) -> String {
        var scale = 1
        for _ in 0..<places { scale *= 10 }
        var fraction = String(value % scale)
        fraction = String(repeating: "0", count: places - fraction.count) + fraction
        while fraction.last == "0" { fraction.removeLast() }
        return fraction.isEmpty ? "\(value / scale)" : "\(value / scale).\(fraction)"
    }
}
