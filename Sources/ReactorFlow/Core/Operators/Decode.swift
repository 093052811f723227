import Foundation

/// Decodes a `Decodable` value from `Data`, as `JSONDecoder` and `PropertyListDecoder` do; what `decode(type:decoder:)`
/// takes.
public protocol DataDecoder {
    /// Decodes a value of `type` from `data`, or throws.
    func decode<Item: Decodable>(_ type: Item.Type, from data: Data) throws -> Item
}

extension JSONDecoder: DataDecoder {}
extension PropertyListDecoder: DataDecoder {}

extension ObservableType where Element == Data {
    /// Decodes each element into `type` with `decoder`; a decoding error ends the stream with that error.
    ///
    /// ```swift
    /// api.data(for: request).decode(type: User.self, decoder: JSONDecoder())
    /// ```
    public func decode<Item: Decodable, Decoder: DataDecoder>(type: Item.Type, decoder: Decoder) -> Observable<Item> {
        map { try decoder.decode(type, from: $0) }
    }
}
