import Convoy
import ConvoyTesting
import Foundation
import Testing

/// The demo API's two-step login, built in ConvoyTesting from Convoy's public pieces.
@Suite struct SimulatedLoginJobTests {
  private func connection(_ api: SimulatedPlacesAPI, observers: [any EventObserver] = [])
    -> ServerConnection
  {
    ServerConnection(
      configuration: ServerConfiguration(
        environment: .staging, baseURL: URL(string: "https://staging.places.example/api/")!,
        authentication: SimulatedPlacesAPI.authentication),
      transport: api, observers: observers)
  }

  @Test func fetchesTheClientSecretThenTheTokenAndYieldsASession() async throws {
    let api = SimulatedPlacesAPI()
    let connection = connection(api)
    let session = try await connection.run(
      SimulatedPlacesAPI.LoginJob(email: "demo@convoy.example", password: "demo-password"))
    #expect(session.clientSecret?.id == "places-demo-app")
    #expect(session.accessToken.refreshToken != nil)
    #expect(api.requests.map { $0.url.path } == ["/api/users/retrieve-client", "/api/oauth/token"])
    let grant = try #require(api.requests.last?.bodyText)
    #expect(grant.contains("grant_type=password"))
    #expect(grant.contains("username=demo%40convoy.example"))
    #expect(connection.session == nil)  // run(LoginJob) only yields the session
  }

  @Test func loginInstallsTheSessionForSignedRequests() async throws {
    let connection = connection(SimulatedPlacesAPI())
    try await connection.login(
      with: SimulatedPlacesAPI.LoginJob(email: "demo@convoy.example", password: "demo-password"))
    #expect(connection.session != nil)
  }

  @Test func wrongCredentialsFailTheJobWithoutAToken() async throws {
    let api = SimulatedPlacesAPI()
    await #expect {
      try await connection(api).login(
        with: SimulatedPlacesAPI.LoginJob(email: "demo@convoy.example", password: "nope"))
    } throws: { error in
      (error as? ServerConnectionError)?.statusCode == 401
    }
    #expect(api.requests.count == 1)
  }

  @Test func thePasswordStaysOutOfDescriptions() {
    let job = SimulatedPlacesAPI.LoginJob(email: "demo@convoy.example", password: "hunter2")
    var dumped = ""
    dump(job, to: &dumped)
    for text in [String(describing: job), String(reflecting: job), dumped] {
      #expect(!text.contains("hunter2"))
    }
  }

  @Test func aJobReportsItsLifeAndItsCallsCarryItsID() async throws {
    let events = Locked<[ConvoyEvent]>([])
    let connection = connection(
      SimulatedPlacesAPI(),
      observers: [AnyEventObserver { event in events.withLock { $0.append(event) } }])
    _ = try await connection.run(
      SimulatedPlacesAPI.LoginJob(email: "demo@convoy.example", password: "demo-password"))
    let all = events.current
    let jobEvents = all.filter { $0.job != nil }
    #expect(jobEvents.first?.name == .jobStarted)
    #expect(jobEvents.first?.job?.name == "LoginJob")
    #expect(jobEvents.last?.name == .jobFinished)
    #expect(jobEvents.contains { $0.name == .jobProgress })
    let jobID = try #require(jobEvents.first?.job?.id)
    #expect(jobEvents.allSatisfy { $0.job?.id == jobID })
    let calls = all.filter { $0.name == .requestCreated }
    #expect(calls.count == 2)
    #expect(calls.allSatisfy { $0.call?.jobID == jobID })
    #expect(all.filter { $0.endsRequest }.count == 2)
    // A single execute reports only its call, not a job.
    events.withLock { $0.removeAll() }
    struct Places: RequestDescribing {
      typealias Response = DataResponse
      var method: HTTPMethod { .get }
      var path: String { "v2/places" }
    }
    _ = try? await connection.execute(Places())
    #expect(events.current.allSatisfy { $0.call != nil && $0.call?.jobID == nil && $0.job == nil })
  }
}
