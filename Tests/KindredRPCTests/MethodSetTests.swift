@testable import KindredRPC
import Testing

/// How a service's declared public surface reaches the router: deny-by-default, one declaration per service.
@Suite struct MethodSetTests {
    struct Undeclared: RPCService {
        func registerMethods(with router: inout RPCRouter) {
            AuthTestService().registerMethods(with: &router)
        }
    }

    struct Open: RPCService {
        let publicMethods = MethodSet.all

        func registerMethods(with router: inout RPCRouter) {
            AuthTestService().registerMethods(with: &router)
        }
    }

    func publicPaths(_ service: some RPCService) -> Set<String> {
        var router = RPCRouter()
        router.register(service)
        return Set(router.routes.values.filter(\.isPublic).map(\.descriptor.path))
    }

    @Test func onlyDeclaredMethodsArePublic() {
        #expect(publicPaths(AuthTestService()) == ["/test.Auth/Hello", "/test.Auth/Peek"])
    }

    @Test func aServiceThatDeclaresNothingIsEntirelyProtected() {
        #expect(publicPaths(Undeclared()).isEmpty)
    }

    @Test func allMakesEveryMethodPublic() {
        #expect(publicPaths(Open()).count == 6)
    }

    @Test func methodsRegisteredOutsideAServiceAreProtected() {
        var router = RPCRouter()
        router.registerUnary(AuthTestService.hello) { (request: ClientTestText, _) in request }
        #expect(router.routes.values.allSatisfy { !$0.isPublic })
    }
}
