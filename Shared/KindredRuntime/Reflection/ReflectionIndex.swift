import KindredMessages
import KindredRPC

/// What a server reflection request asks, whichever protocol version (v1 or v1alpha) carried it.
enum ReflectionQuery: Equatable {
    case listServices
    case fileByFilename(String)
    case fileContainingSymbol(String)
    case fileContainingExtension(containingType: String, number: Int32)
    case allExtensionNumbers(ofType: String)
    case missing
}

/// The answer to a reflection query, before it is dressed in a protocol version's messages.
enum ReflectionAnswer: Equatable {
    case services([String])
    case files([[UInt8]])
    case extensionNumbers(baseType: String, numbers: [Int32])
    case error(StatusCode, String)
}

/// Answers reflection queries from the descriptors compiled into the binary.
struct ReflectionIndex: Sendable {
    /// The services this process serves, as `ListServices` reports them.
    let servedServices: [String]
    private let files: [String: ProtoFileDescriptor]

    init(servedServices: [String], files: [ProtoFileDescriptor] = ProtoFileRegistry.files) {
        self.servedServices = servedServices.sorted()
        self.files = Dictionary(files.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    func answer(_ query: ReflectionQuery) -> ReflectionAnswer {
        switch query {
        case .listServices:
            return .services(servedServices)
        case .fileByFilename(let name):
            guard let file = files[name] else { return .error(.notFound, "unknown file \(name)") }
            return .files(closure(of: file))
        case .fileContainingSymbol(let symbol):
            guard let file = file(defining: symbol) else {
                return .error(.notFound, "unknown symbol \(symbol)")
            }
            return .files(closure(of: file))
        case .fileContainingExtension(let type, let number):
            // Kindred's protos are proto3 and declare no extensions.
            return .error(.notFound, "no extension \(number) of \(type)")
        case .allExtensionNumbers(let type):
            guard file(defining: type) != nil else { return .error(.notFound, "unknown type \(type)") }
            return .extensionNumbers(baseType: type, numbers: [])
        case .missing:
            return .error(.invalidArgument, "the request names no query")
        }
    }

    /// The file that defines `symbol`; a leading dot (as descriptors write type names) is ignored.
    private func file(defining symbol: String) -> ProtoFileDescriptor? {
        let name = symbol.hasPrefix(".") ? String(symbol.dropFirst()) : symbol
        return files.values.first { $0.symbols.contains(name) }
    }

    /// The file's serialized descriptor followed by those of everything it imports, each once.
    private func closure(of root: ProtoFileDescriptor) -> [[UInt8]] {
        var seen: Set<String> = [root.name]
        var order = [root]
        var next = 0
        while next < order.count {
            for dependency in order[next].dependencies where !seen.contains(dependency) {
                seen.insert(dependency)
                if let file = files[dependency] { order.append(file) }
            }
            next += 1
        }
        return order.map(\.serializedFileDescriptor)
    }
}
