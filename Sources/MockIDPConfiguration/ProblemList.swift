/// The problems found so far, capped so that a hostile file cannot make the list itself exhaust memory.
struct ProblemList: Sendable {
    /// More than this many problems helps nobody; the rest are counted and summarised in one line.
    static let maximumCount = 1000

    private(set) var problems: [ConfigurationProblem] = []
    private var omitted = 0
    private var firstOmitted: ConfigurationProblem?

    var isEmpty: Bool { problems.isEmpty }

    /// Whether further problems are only counted: work that only words a problem can be skipped.
    var isFull: Bool { problems.count >= Self.maximumCount }

    mutating func append(_ problem: ConfigurationProblem) {
        if problems.count < Self.maximumCount {
            problems.append(problem)
        } else {
            if firstOmitted == nil { firstOmitted = problem }
            omitted += 1
        }
    }

    mutating func append(contentsOf others: some Sequence<ConfigurationProblem>) {
        for problem in others { append(problem) }
    }

    mutating func append(contentsOf other: ProblemList) {
        append(contentsOf: other.problems)
        if let omittedThere = other.firstOmitted {
            if firstOmitted == nil { firstOmitted = omittedThere }
            omitted += other.omitted
        }
    }

    /// The problems in the order of `files`, then by line (problems on one line keep the order they were
    /// found in), and the summary of those left out.
    func sorted(fileOrder files: [String]) -> [ConfigurationProblem] {
        var rank: [String: Int] = [:]
        for (index, file) in files.enumerated() where rank[file] == nil { rank[file] = index }
        let ordered = problems.enumerated().sorted { a, b in
            let ra = rank[a.element.file] ?? files.count, rb = rank[b.element.file] ?? files.count
            if ra != rb { return ra < rb }
            if a.element.line != b.element.line { return a.element.line < b.element.line }
            return a.offset < b.offset
        }.map(\.element)
        guard let firstOmitted else { return ordered }
        let summary = ConfigurationProblem(file: firstOmitted.file, line: firstOmitted.line, path: "",
                                           reason: "\(omitted) more problems not shown")
        return ordered + [summary]
    }
}
