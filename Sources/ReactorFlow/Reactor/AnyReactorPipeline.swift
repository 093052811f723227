/// A reactor's pipeline with its reactor type erased: what `ReactorStorage` keeps, so that it hands the pipeline out
/// with an unchecked cast and disposes it with a plain method call, where a protocol cast (`as? Disposable`) would
/// search the conformance at run time for every reactor that dies.
@usableFromInline
package class AnyReactorPipeline: @unchecked Sendable { // no state of its own
    @usableFromInline init() {}

    /// Ends the pipeline (see `ReactorPipeline.dispose`); called once, when the reactor is deinitialised.
    @usableFromInline package func dispose() {}
}
