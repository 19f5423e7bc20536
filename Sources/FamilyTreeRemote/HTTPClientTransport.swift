import FamilyTreeHTTP
import Foundation
import HTTPTypes
import OpenAPIRuntime

/// The typed client's requests, each sent whole through `HTTPClient` and its answer read whole.
struct HTTPClientTransport: ClientTransport {
    /// A request's address could not be made from the base and the operation's path.
    struct InvalidAddress: Error, CustomStringConvertible {
        var path: String
        var description: String { "no address can be made of the path \(path.debugDescription)" }
    }

    let client: HTTPClient
    /// The most bytes a request may send or an answer bring.
    let limit: Int

    func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        let url = try Self.address(of: request, on: baseURL)
        let bytes: Data? = if let body { try await Data(collecting: body, upTo: limit) } else { nil }
        let fields = request.headerFields.map { (name: $0.name.rawName, value: $0.value) }
        let (head, data) = try await client.data(for: .init(method: request.method.rawValue, url: url, headerFields: fields, body: bytes), limit: limit)
        var response = HTTPResponse(status: .init(code: head.status))
        for (name, value) in head.headerFields {
            if let name = HTTPField.Name(name) { response.headerFields.append(HTTPField(name: name, value: value)) }
        }
        return (response, request.method == .head ? nil : HTTPBody(data))
    }

    /// The base's path followed by the request's, and the request's query.
    static func address(of request: HTTPRequest, on baseURL: URL) throws -> URL {
        guard var address = URLComponents(string: baseURL.absoluteString), let path = URLComponents(string: request.path ?? "") else {
            throw InvalidAddress(path: request.path ?? "")
        }
        address.percentEncodedPath += path.percentEncodedPath
        address.percentEncodedQuery = path.percentEncodedQuery
        guard let url = address.url else { throw InvalidAddress(path: request.path ?? "") }
        return url
    }
}
