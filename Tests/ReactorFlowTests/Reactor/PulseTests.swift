import Foundation
@testable import ReactorFlow
import ReactorFlowTesting
import Testing

@Suite("Pulse (C)")
struct PulseTests {
    @Test("C1 every assignment counts, even of an equal value, and the count wraps around")
    func updateCount() {
        var pulse = Pulse<String?>(wrappedValue: nil)
        #expect(pulse.valueUpdatedCount == 0)
        pulse.value = "a"
        pulse.value = "a"
        pulse.wrappedValue = "b"
        #expect(pulse.valueUpdatedCount == 3)
        #expect(pulse.projectedValue.value == "b")
        pulse.valueUpdatedCount = .max
        pulse.value = "c"
        #expect(pulse.valueUpdatedCount == 0)
    }

    /// An observer takes events, so each state reaches the pulse wrapped in one; `subscribe(onNext:)` and a chain
    /// after the pulse take the states alone. Both paths give the same values.
    @Test("C2 an alert sent twice shows twice; an unrelated action shows nothing; to an observer, an onNext and a chain alike")
    func pulseEmitsPerAssignment() {
        let reactor = ProbeReactor()
        let (alerts, _) = reactor.pulse(\.$alert).log()
        var received: [String?] = []
        let onNext = reactor.pulse(\.$alert).subscribe(onNext: { received.append($0) })
        var chained: [String] = []
        let chain = reactor.pulse(\.$alert).compactMap { $0 }.map { $0.uppercased() }.subscribe(onNext: { chained.append($0) })
        reactor.action.onNext(.record("alert:Hello"))
        reactor.action.onNext(.record("alert:Hello"))
        reactor.action.onNext(.add(1))
        reactor.action.onNext(.record("unrelated"))
        #expect(alerts.events == [.next(nil), .next("Hello"), .next("Hello")])
        #expect(received == [nil, "Hello", "Hello"])
        #expect(chained == ["HELLO", "HELLO"])
        onNext.dispose()
        chain.dispose()
    }

    @Test("C3 .latest replays the current value (even the initial one) to a new subscriber")
    func latestDelivery() {
        let reactor = ProbeReactor()
        #expect(reactor.pulse(\.$alert).log().0.elements == [nil])
        reactor.action.onNext(.record("alert:Hi"))
        _ = reactor.pulse(\.$alert).log()
        #expect(reactor.pulse(\.$alert).log().0.elements == ["Hi"])
    }

    @Test("C3 .unconsumed delivers the current value only if nobody received it, then only new assignments")
    func unconsumedDelivery() {
        let reactor = ProbeReactor()
        let (early, earlySubscription) = reactor.pulse(\.$alert, delivery: .unconsumed).log()
        earlySubscription.dispose()
        #expect(early.elements.isEmpty, "never assigned: nothing to deliver")
        reactor.action.onNext(.record("alert:Unseen"))
        let (late, lateSubscription) = reactor.pulse(\.$alert, delivery: .unconsumed).log()
        #expect(late.elements == ["Unseen"], "a late binder gets an event nobody has seen")
        lateSubscription.dispose()
        let (rebound, _) = reactor.pulse(\.$alert, delivery: .unconsumed).log()
        #expect(rebound.elements.isEmpty, "a re-bound view does not see it twice")
        reactor.action.onNext(.record("alert:Next"))
        #expect(rebound.elements == ["Next"])
    }

    @Test("C4 a State with pulses can be Equatable, Hashable and Sendable")
    func stateWithPulsesIsEquatableAndSendable() {
        func requireSendable<T: Sendable>(_ value: T) -> T { value }
        var a = ProbeReactor.State()
        let b = requireSendable(ProbeReactor.State())
        #expect(a == b)
        a.alert = nil
        #expect(a != b, "equal values, different update counts")
        #expect(Set([Pulse(wrappedValue: 1), Pulse(wrappedValue: 1)]).count == 1)
    }

    @Test("C1 a pulse reflects as its value and its update count, as a state diff or dump shows it")
    func reflection() {
        var pulse = Pulse(wrappedValue: "a")
        pulse.value = "b"
        let children = Mirror(reflecting: pulse).children.map { "\($0.label ?? "?")=\($0.value)" }
        #expect(children == ["value=b", "valueUpdatedCount=1"])
        #expect(Mirror(reflecting: pulse).displayStyle == .struct)
    }
}
