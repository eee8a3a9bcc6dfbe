import Convoy
import Foundation
import Testing

// Expected strings come from the reference encoders named in each test, not from this encoder.
@Suite struct FormURLEncoderTests {
  private let ids: [String: FormValue] = ["ids": [1, 2, 3]]

  @Test func arraysWithBracketsMatchJQueryAndRails() {
    // jQuery.param({ids: [1, 2, 3]}) and {ids: [1, 2, 3]}.to_query in Rails.
    #expect(FormURLEncoder().encode(ids) == "ids%5B%5D=1&ids%5B%5D=2&ids%5B%5D=3")
  }

  @Test func indexedArraysMatchPHPHTTPBuildQuery() {
    // http_build_query(['ids' => [1, 2, 3]]).
    let encoder = FormURLEncoder(arrayEncoding: .indexed)
    #expect(encoder.encode(ids) == "ids%5B0%5D=1&ids%5B1%5D=2&ids%5B2%5D=3")
  }

  @Test func repeatedKeysMatchGoAndPythonEncoders() {
    // url.Values{"ids": {"1", "2", "3"}}.Encode() in Go; urlencode(..., doseq=True) in Python.
    let encoder = FormURLEncoder(arrayEncoding: .repeatedKey)
    #expect(encoder.encode(ids) == "ids=1&ids=2&ids=3")
  }

  @Test func mixedArraysMatchAlamofire() {
    // Alamofire's URLEncoding test for ["foo": ["a", 1, true]].
    #expect(
      FormURLEncoder().encode(["foo": ["a", 1, true]]) == "foo%5B%5D=a&foo%5B%5D=1&foo%5B%5D=1")
  }

  @Test func nestedDictionariesMatchPHPAndJQuery() {
    // http_build_query(['a' => ['b' => ['c' => 'd']]]); jQuery.param({a: {b: {c: "d"}}}).
    #expect(FormURLEncoder().encode(["a": ["b": ["c": "d"]]]) == "a%5Bb%5D%5Bc%5D=d")
  }

  @Test func arraysOfDictionariesStayApartWhenIndexed() {
    let items: [String: FormValue] = ["items": [["id": 1, "qty": 2], ["id": 7, "qty": 1]]]
    #expect(
      FormURLEncoder(arrayEncoding: .indexed).encode(items)
        == "items%5B0%5D%5Bid%5D=1&items%5B0%5D%5Bqty%5D=2&items%5B1%5D%5Bid%5D=7&items%5B1%5D%5Bqty%5D=1"
    )
    #expect(
      FormURLEncoder().encode(items)
        == "items%5B%5D%5Bid%5D=1&items%5B%5D%5Bqty%5D=2&items%5B%5D%5Bid%5D=7&items%5B%5D%5Bqty%5D=1"
    )
  }

  @Test func booleansAreNumericOrLiteral() {
    let flags: [String: FormValue] = ["on": true, "off": false]
    #expect(FormURLEncoder().encode(flags) == "off=0&on=1")
    #expect(FormURLEncoder(boolEncoding: .literal).encode(flags) == "off=false&on=true")
  }

  @Test func spacesArePercentEncodedOrPlus() {
    let query: [String: FormValue] = ["q": "a b+c"]
    #expect(FormURLEncoder().encode(query) == "q=a%20b%2Bc")
    // jQuery.param({q: "a b+c"}).
    #expect(FormURLEncoder(spaceEncoding: .plus).encode(query) == "q=a+b%2Bc")
  }

  @Test func reservedAndNonASCIICharactersAreEncodedAsUTF8() {
    let text: [String: FormValue] = ["city": "Zürich", "note": "a&b=c/d?", "emoji": "☕️"]
    #expect(
      FormURLEncoder().encode(text)
        == "city=Z%C3%BCrich&emoji=%E2%98%95%EF%B8%8F&note=a%26b%3Dc%2Fd%3F")
  }

  @Test func keysAreSortedAtEveryLevelAndArraysKeepTheirOrder() {
    let parameters: [String: FormValue] = [
      "b": ["z": 1, "a": 2], "a": ["3", "1", "2"], "c": 1.5,
    ]
    #expect(
      FormURLEncoder().encode(parameters)
        == "a%5B%5D=3&a%5B%5D=1&a%5B%5D=2&b%5Ba%5D=2&b%5Bz%5D=1&c=1.5")
  }

  @Test func emptyArraysAndDictionariesSendNothing() {
    #expect(FormURLEncoder().encode(["none": [], "nothing": [:], "x": "1"]) == "x=1")
  }

  @Test func queryItemsCarryTheSameNamesUnencoded() {
    let items = FormURLEncoder().queryItems(["ids": [1, 2], "user": ["name": "Ann"]])
    #expect(
      items == [
        URLQueryItem(name: "ids[]", value: "1"), URLQueryItem(name: "ids[]", value: "2"),
        URLQueryItem(name: "user[name]", value: "Ann"),
      ])
  }

  @Test func formBodiesCarryTheirContentType() throws {
    let body = RequestBody.form(["name": "Ann Lee"])
    #expect(body.contentType == "application/x-www-form-urlencoded; charset=utf-8")
    guard case .data(let data) = body.content else {
      Issue.record("a form body is encoded at once")
      return
    }
    #expect(String(decoding: data, as: UTF8.self) == "name=Ann%20Lee")
  }
}
