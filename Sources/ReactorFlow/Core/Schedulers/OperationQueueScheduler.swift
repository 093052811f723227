import Foundation

/// Runs work as operations on an `OperationQueue`, with the queue's concurrency and each operation at
/// `queuePriority`.
///
/// ```swift
/// let queue = OperationQueue()
/// queue.maxConcurrentOperationCount = 2
/// thumbnails.observe(on: OperationQueueScheduler(operationQueue: queue))
/// ```
public final class OperationQueueScheduler: ImmediateSchedulerType, Sendable {
    /// The queue the operations are added to.
    public let operationQueue: OperationQueue
    /// The priority of each operation this scheduler adds.
    public let queuePriority: Operation.QueuePriority

    /// A scheduler that adds its operations to `operationQueue`, at `queuePriority`.
    public init(operationQueue: OperationQueue, queuePriority: Operation.QueuePriority = .normal) {
        self.operationQueue = operationQueue
        self.queuePriority = queuePriority
    }

    /// Adds an operation that runs `action`; disposing the result before it starts cancels it.
    public func schedule(_ action: @escaping () -> Void) -> Disposable {
        let item = ScheduledItem.make(action)
        let operation = BlockOperation(block: item.runOnAnyThread)
        operation.queuePriority = queuePriority
        operationQueue.addOperation(operation)
        return Disposables.create {
            item.dispose()
            operation.cancel()
        }
    }
}
