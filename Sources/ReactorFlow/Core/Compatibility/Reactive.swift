import Foundation

/// RxSwift's `.rx` namespace: a place for the reactive extensions of a type, written as constrained extensions of
/// `Reactive`. Every writable property of a class comes as a `Binder` through it, so a stream can be bound to a
/// view's property without writing one.
///
/// ```swift
/// extension Reactive where Base: ProfileView {
///     var avatar: Binder<Image?> { Binder(base) { view, image in view.setAvatar(image) } }
/// }
/// reactor.state.map(\.name).bind(to: profileView.nameLabel.rx.text)
/// reactor.state.map(\.avatar).bind(to: profileView.rx.avatar)
/// ```
@dynamicMemberLookup
public struct Reactive<Base> {
    /// The value the extensions act on.
    public let base: Base

    /// The namespace of `base`.
    public init(_ base: Base) {
        self.base = base
    }

    /// A `Binder` that sets the property at `keyPath` of `base` (held weakly), on the main scheduler.
    public subscript<Property>(dynamicMember keyPath: ReferenceWritableKeyPath<Base, Property>) -> Binder<Property>
        where Base: AnyObject {
        Binder(base) { base, value in base[keyPath: keyPath] = value }
    }
}

/// A type with an `.rx` namespace; every `NSObject` has one.
///
/// ```swift
/// final class Player: ReactiveCompatible { var volume = 0.5 }
/// volumeSlider.values.bind(to: player.rx.volume)
/// ```
public protocol ReactiveCompatible {
    /// The type the namespace extends.
    associatedtype ReactiveBase

    /// The namespace of the type, for static extensions.
    static var rx: Reactive<ReactiveBase>.Type { get set }

    /// The namespace of this value.
    var rx: Reactive<ReactiveBase> { get set }
}

extension ReactiveCompatible {
    /// The namespace of the type, for static extensions; setting it does nothing (it exists for `mutating` extensions).
    public static var rx: Reactive<Self>.Type {
        get { Reactive<Self>.self }
        set {}
    }

    /// The namespace of this value; setting it does nothing (it exists for `mutating` extensions).
    public var rx: Reactive<Self> {
        get { Reactive(self) }
        set {}
    }
}

extension NSObject: ReactiveCompatible {}
