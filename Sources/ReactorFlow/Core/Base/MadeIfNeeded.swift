/// The object in `slot`, made by `make` and stored there first if there is none: how an object keeps what it seldom
/// needs behind one optional word (a subject's overflow, a reactor loop's subject of reduced states, a storage's
/// extras). The caller guards `slot` as it guards the rest of the object.
@inlinable
func madeIfNeeded<Box: AnyObject>(_ slot: inout Box?, _ make: () -> Box) -> Box {
    if let box = slot { return box }
    let made = make()
    slot = made
    return made
}
