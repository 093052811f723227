import ReactorFlow
import ReactorFlowTesting
import Testing

/// `combineLatest` and `zip` for 2 to 8 sources, each overload called by name: with a result selector, and as a
/// tuple (flattened here into an array, to compare rows of any arity). Source `i` sends `i`, then `10 + i`.
@Suite("A9 combineLatest and zip for 2 to 8 sources")
struct ArityTests {
    static let arities = Array(2...8)

    @Test("A9 combineLatest of 2 to 8 sources, with a result selector and as a tuple: a row once all have sent, then one per element",
          arguments: arities)
    func combineLatest(arity: Int) {
        let subjects = (0..<arity).map { _ in PublishSubject<Int>() }
        let sources = subjects.map { $0.asObservable() }
        let (rows, _) = Self.combineLatest(sources).log()
        let (tuples, _) = Self.combineLatestTuple(sources).log()
        for (index, subject) in subjects.enumerated() { subject.onNext(index) }
        subjects[arity - 1].onNext(10 + arity - 1)
        subjects[0].onNext(10)
        for subject in subjects { subject.onCompleted() }
        let first = Array(0..<arity)
        let second = first.dropLast() + [10 + arity - 1]
        let third = [10] + second.dropFirst()
        #expect(rows.events == [.next(first), .next(Array(second)), .next(Array(third)), .completed])
        #expect(tuples.events == rows.events)
    }

    @Test("A9 zip of 2 to 8 sources, with a result selector and as a tuple: the n-th elements together; done once all are",
          arguments: arities)
    func zip(arity: Int) {
        let subjects = (0..<arity).map { _ in PublishSubject<Int>() }
        let sources = subjects.map { $0.asObservable() }
        let (rows, _) = Self.zip(sources).log()
        let (tuples, _) = Self.zipTuple(sources).log()
        for (index, subject) in subjects.enumerated() { subject.onNext(index) }
        for (index, subject) in subjects.enumerated().reversed() { subject.onNext(10 + index) }
        subjects[0].onNext(20) // waits for partners that never come
        for subject in subjects.dropFirst() { subject.onCompleted() }
        #expect(rows.events == [.next(Array(0..<arity)), .next(Array(10..<(10 + arity)))])
        subjects[0].onCompleted()
        #expect(rows.events == [.next(Array(0..<arity)), .next(Array(10..<(10 + arity))), .completed])
        #expect(tuples.events == rows.events)
    }

    @Test("A9 Single.zip of 2 to 8, with a result selector and as a tuple: every element once all succeed; the first failure fails it",
          arguments: arities)
    func singleZip(arity: Int) {
        let singles = (0..<arity).map { Single.just($0) }
        #expect(Self.singleZip(singles).asObservable().log().0.events == [.next(Array(0..<arity)), .completed])
        #expect(Self.singleZipTuple(singles).asObservable().log().0.events == [.next(Array(0..<arity)), .completed])
        let failing = singles.dropLast() + [Single<Int>.error(TestError("last"))]
        #expect(Self.singleZip(Array(failing)).asObservable().log().0.events == [.error(TestError("last"))])
    }

    @Test("A9 Maybe.zip of 2 to 8, with a result selector and as a tuple: every element once all succeed; empty if one is",
          arguments: arities)
    func maybeZip(arity: Int) {
        let maybes = (0..<arity).map { Maybe.just($0) }
        #expect(Self.maybeZip(maybes).asObservable().log().0.events == [.next(Array(0..<arity)), .completed])
        #expect(Self.maybeZipTuple(maybes).asObservable().log().0.events == [.next(Array(0..<arity)), .completed])
        let oneEmpty = maybes.dropLast() + [Maybe<Int>.empty()]
        #expect(Self.maybeZip(Array(oneEmpty)).asObservable().log().0.events == [.completed])
    }

    @Test("A9 Infallible.combineLatest and zip of 2 to 8, with a result selector and as a tuple", arguments: arities)
    func infallible(arity: Int) {
        let sources = (0..<arity).map { Infallible.just($0) }
        let row: [Event<[Int]>] = [.next(Array(0..<arity)), .completed]
        #expect(Self.infallibleCombineLatest(sources).asObservable().log().0.events == row)
        #expect(Self.infallibleCombineLatestTuple(sources).asObservable().log().0.events == row)
        #expect(Self.infallibleZip(sources).asObservable().log().0.events == row)
        #expect(Self.infallibleZipTuple(sources).asObservable().log().0.events == row)
    }

    /// The elements of a tuple of `Int`s, in order.
    static func flattened(_ tuple: Any) -> [Int] {
        Mirror(reflecting: tuple).children.map { $0.value as! Int } // every test tuple holds Ints
    }


    static func combineLatest(_ s: [Observable<Int>]) -> Observable<[Int]> {
        switch s.count {
        case 2: Observable.combineLatest(s[0], s[1]) { [$0, $1] }
        case 3: Observable.combineLatest(s[0], s[1], s[2]) { [$0, $1, $2] }
        case 4: Observable.combineLatest(s[0], s[1], s[2], s[3]) { [$0, $1, $2, $3] }
        case 5: Observable.combineLatest(s[0], s[1], s[2], s[3], s[4]) { [$0, $1, $2, $3, $4] }
        case 6: Observable.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5]) { [$0, $1, $2, $3, $4, $5] }
        case 7: Observable.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6]) { [$0, $1, $2, $3, $4, $5, $6] }
        default: Observable.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]) { [$0, $1, $2, $3, $4, $5, $6, $7] }
        }
    }

    static func combineLatestTuple(_ s: [Observable<Int>]) -> Observable<[Int]> {
        switch s.count {
        case 2: Observable.combineLatest(s[0], s[1]).map(flattened)
        case 3: Observable.combineLatest(s[0], s[1], s[2]).map(flattened)
        case 4: Observable.combineLatest(s[0], s[1], s[2], s[3]).map(flattened)
        case 5: Observable.combineLatest(s[0], s[1], s[2], s[3], s[4]).map(flattened)
        case 6: Observable.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5]).map(flattened)
        case 7: Observable.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6]).map(flattened)
        default: Observable.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]).map(flattened)
        }
    }

    static func zip(_ s: [Observable<Int>]) -> Observable<[Int]> {
        switch s.count {
        case 2: Observable.zip(s[0], s[1]) { [$0, $1] }
        case 3: Observable.zip(s[0], s[1], s[2]) { [$0, $1, $2] }
        case 4: Observable.zip(s[0], s[1], s[2], s[3]) { [$0, $1, $2, $3] }
        case 5: Observable.zip(s[0], s[1], s[2], s[3], s[4]) { [$0, $1, $2, $3, $4] }
        case 6: Observable.zip(s[0], s[1], s[2], s[3], s[4], s[5]) { [$0, $1, $2, $3, $4, $5] }
        case 7: Observable.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6]) { [$0, $1, $2, $3, $4, $5, $6] }
        default: Observable.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]) { [$0, $1, $2, $3, $4, $5, $6, $7] }
        }
    }

    static func zipTuple(_ s: [Observable<Int>]) -> Observable<[Int]> {
        switch s.count {
        case 2: Observable.zip(s[0], s[1]).map(flattened)
        case 3: Observable.zip(s[0], s[1], s[2]).map(flattened)
        case 4: Observable.zip(s[0], s[1], s[2], s[3]).map(flattened)
        case 5: Observable.zip(s[0], s[1], s[2], s[3], s[4]).map(flattened)
        case 6: Observable.zip(s[0], s[1], s[2], s[3], s[4], s[5]).map(flattened)
        case 7: Observable.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6]).map(flattened)
        default: Observable.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]).map(flattened)
        }
    }

    static func singleZip(_ s: [Single<Int>]) -> Single<[Int]> {
        switch s.count {
        case 2: Single.zip(s[0], s[1]) { [$0, $1] }
        case 3: Single.zip(s[0], s[1], s[2]) { [$0, $1, $2] }
        case 4: Single.zip(s[0], s[1], s[2], s[3]) { [$0, $1, $2, $3] }
        case 5: Single.zip(s[0], s[1], s[2], s[3], s[4]) { [$0, $1, $2, $3, $4] }
        case 6: Single.zip(s[0], s[1], s[2], s[3], s[4], s[5]) { [$0, $1, $2, $3, $4, $5] }
        case 7: Single.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6]) { [$0, $1, $2, $3, $4, $5, $6] }
        default: Single.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]) { [$0, $1, $2, $3, $4, $5, $6, $7] }
        }
    }

    static func singleZipTuple(_ s: [Single<Int>]) -> Single<[Int]> {
        switch s.count {
        case 2: Single.zip(s[0], s[1]).map(flattened)
        case 3: Single.zip(s[0], s[1], s[2]).map(flattened)
        case 4: Single.zip(s[0], s[1], s[2], s[3]).map(flattened)
        case 5: Single.zip(s[0], s[1], s[2], s[3], s[4]).map(flattened)
        case 6: Single.zip(s[0], s[1], s[2], s[3], s[4], s[5]).map(flattened)
        case 7: Single.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6]).map(flattened)
        default: Single.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]).map(flattened)
        }
    }

    static func maybeZip(_ s: [Maybe<Int>]) -> Maybe<[Int]> {
        switch s.count {
        case 2: Maybe.zip(s[0], s[1]) { [$0, $1] }
        case 3: Maybe.zip(s[0], s[1], s[2]) { [$0, $1, $2] }
        case 4: Maybe.zip(s[0], s[1], s[2], s[3]) { [$0, $1, $2, $3] }
        case 5: Maybe.zip(s[0], s[1], s[2], s[3], s[4]) { [$0, $1, $2, $3, $4] }
        case 6: Maybe.zip(s[0], s[1], s[2], s[3], s[4], s[5]) { [$0, $1, $2, $3, $4, $5] }
        case 7: Maybe.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6]) { [$0, $1, $2, $3, $4, $5, $6] }
        default: Maybe.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]) { [$0, $1, $2, $3, $4, $5, $6, $7] }
        }
    }

    static func maybeZipTuple(_ s: [Maybe<Int>]) -> Maybe<[Int]> {
        switch s.count {
        case 2: Maybe.zip(s[0], s[1]).map(flattened)
        case 3: Maybe.zip(s[0], s[1], s[2]).map(flattened)
        case 4: Maybe.zip(s[0], s[1], s[2], s[3]).map(flattened)
        case 5: Maybe.zip(s[0], s[1], s[2], s[3], s[4]).map(flattened)
        case 6: Maybe.zip(s[0], s[1], s[2], s[3], s[4], s[5]).map(flattened)
        case 7: Maybe.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6]).map(flattened)
        default: Maybe.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]).map(flattened)
        }
    }

    static func infallibleCombineLatest(_ s: [Infallible<Int>]) -> Infallible<[Int]> {
        switch s.count {
        case 2: Infallible.combineLatest(s[0], s[1]) { [$0, $1] }
        case 3: Infallible.combineLatest(s[0], s[1], s[2]) { [$0, $1, $2] }
        case 4: Infallible.combineLatest(s[0], s[1], s[2], s[3]) { [$0, $1, $2, $3] }
        case 5: Infallible.combineLatest(s[0], s[1], s[2], s[3], s[4]) { [$0, $1, $2, $3, $4] }
        case 6: Infallible.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5]) { [$0, $1, $2, $3, $4, $5] }
        case 7: Infallible.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6]) { [$0, $1, $2, $3, $4, $5, $6] }
        default: Infallible.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]) { [$0, $1, $2, $3, $4, $5, $6, $7] }
        }
    }

    static func infallibleCombineLatestTuple(_ s: [Infallible<Int>]) -> Infallible<[Int]> {
        switch s.count {
        case 2: Infallible.combineLatest(s[0], s[1]).map(flattened)
        case 3: Infallible.combineLatest(s[0], s[1], s[2]).map(flattened)
        case 4: Infallible.combineLatest(s[0], s[1], s[2], s[3]).map(flattened)
        case 5: Infallible.combineLatest(s[0], s[1], s[2], s[3], s[4]).map(flattened)
        case 6: Infallible.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5]).map(flattened)
        case 7: Infallible.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6]).map(flattened)
        default: Infallible.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]).map(flattened)
        }
    }

    static func infallibleZip(_ s: [Infallible<Int>]) -> Infallible<[Int]> {
        switch s.count {
        case 2: Infallible.zip(s[0], s[1]) { [$0, $1] }
        case 3: Infallible.zip(s[0], s[1], s[2]) { [$0, $1, $2] }
        case 4: Infallible.zip(s[0], s[1], s[2], s[3]) { [$0, $1, $2, $3] }
        case 5: Infallible.zip(s[0], s[1], s[2], s[3], s[4]) { [$0, $1, $2, $3, $4] }
        case 6: Infallible.zip(s[0], s[1], s[2], s[3], s[4], s[5]) { [$0, $1, $2, $3, $4, $5] }
        case 7: Infallible.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6]) { [$0, $1, $2, $3, $4, $5, $6] }
        default: Infallible.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]) { [$0, $1, $2, $3, $4, $5, $6, $7] }
        }
    }

    static func infallibleZipTuple(_ s: [Infallible<Int>]) -> Infallible<[Int]> {
        switch s.count {
        case 2: Infallible.zip(s[0], s[1]).map(flattened)
        case 3: Infallible.zip(s[0], s[1], s[2]).map(flattened)
        case 4: Infallible.zip(s[0], s[1], s[2], s[3]).map(flattened)
        case 5: Infallible.zip(s[0], s[1], s[2], s[3], s[4]).map(flattened)
        case 6: Infallible.zip(s[0], s[1], s[2], s[3], s[4], s[5]).map(flattened)
        case 7: Infallible.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6]).map(flattened)
        default: Infallible.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]).map(flattened)
        }
    }
}
