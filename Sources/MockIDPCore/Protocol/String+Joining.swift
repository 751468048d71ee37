extension String {
    /// The parts one after another, made in storage sized once: an interpolation of the same parts grows its text as
    /// it goes (twice for an issuer URL, on every token).
    init(joining parts: String...) {
        var count = 0
        for part in parts { count += part.utf8.count }
        self.init()
        reserveCapacity(count)
        for part in parts { append(part) }
    }
}
