import Convoy
import Foundation

// The examples from Docs/Jobs.md, compiled here so that the documentation cannot rot.

typealias API = ExampleAPI

/// Client secret → access token → session, each request built from the previous answer.
struct ThreeStepLoginJob: Job {
  func makeOperation(on connection: ServerConnection) -> ResultOperation<API.Session> {
    connection.operation(for: API.ClientSecretRequest())
      .then { secret in
        connection.operation(for: API.AccessTokenRequest(secret: secret.value.secret))
      }
      .then { token in
        connection.operation(for: API.SessionRequest(token: token.value.accessToken))
      }
      .map(\.value)
  }
}

/// What a home screen shows, loaded in parallel and combined.
struct HomeScreen: Sendable, Equatable {
  var profile: API.Profile
  var articles: [API.Article]
  var settings: API.Settings
}

/// Profile ∥ articles ∥ settings, then combine.
struct HomeScreenJob: Job {
  func makeOperation(on connection: ServerConnection) -> ResultOperation<HomeScreen> {
    GroupOperation.all(
      connection.operation(for: API.ProfileRequest()),
      connection.operation(for: API.ArticlesRequest()),
      connection.operation(for: API.SettingsRequest())
    )
    .map { profile, articles, settings in
      HomeScreen(profile: profile.value, articles: articles.value, settings: settings.value)
    }
  }
}

/// A job made from whatever operation a test builds.
struct OperationJob<Output: Sendable>: Job {
  var timeout: TimeInterval?
  let make: @Sendable (ServerConnection) -> ResultOperation<Output>

  init(
    timeout: TimeInterval? = nil,
    _ make: @escaping @Sendable (ServerConnection) -> ResultOperation<Output>
  ) {
    self.timeout = timeout
    self.make = make
  }

  func makeOperation(on connection: ServerConnection) -> ResultOperation<Output> {
    make(connection)
  }
}
