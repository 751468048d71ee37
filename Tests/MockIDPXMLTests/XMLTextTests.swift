import MockIDPXML
import Testing

@Suite struct XMLTextTests {
    @Test("text escapes markup; an attribute also its quote and the white space normalization would change")
    func escaping() {
        #expect(XMLText.escape("plain") == "plain")
        #expect(XMLText.escape("a<b>&\"c\"\n") == "a&lt;b&gt;&amp;\"c\"\n")
        #expect(XMLText.attribute("a<b>&\"c\"\t\n\r") == "a&lt;b&gt;&amp;&quot;c&quot;&#9;&#10;&#13;")
        #expect(XMLText.attribute("é ü") == "é ü")
    }
}
