import Convoy
import ConvoyTesting
import Foundation
import Testing

@Suite struct ExampleJobTests {
  @Test func loginJobPassesEachAnswerToTheNextRequest() async throws {
    let (connection, stub) = API.connection()
    let session = try await connection.run(ThreeStepLoginJob())
    #expect(session == API.Session(user: "ada", token: "token-for-s3cr3t"))
    #expect(
      stub.requests.map { $0.urlRequest.url!.path } == ["/client-secret", "/token", "/session"])
  }

  @Test func homeScreenJobCombinesThreeParallelRequests() async throws {
    let (connection, stub) = API.connection()
    let outcome = Outcome<Result<HomeScreen, any Error>>()
    connection.run(HomeScreenJob(), completionQueue: testQueue) { outcome.record($0) }
    let screen = try #require(await outcome.first()).get()
    #expect(screen.profile.name == "Ada")
    #expect(screen.articles.count == 2)
    #expect(screen.settings.theme == "dark")
    #expect(stub.requests.count == 3)
    #expect(outcome.count == 1)
  }
}
