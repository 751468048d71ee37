import CXMLSec

/// Raw DEFLATE (RFC 1951), as the HTTP-Redirect binding carries a message
/// (https://docs.oasis-open.org/security/saml/v2.0/saml-bindings-2.0-os.pdf, section 3.4.4.1), inflated under a size
/// and a ratio bound so that a deflate bomb is refused after a few kilobytes of work.
package enum RawDeflate {
    /// The inflated bytes of `deflated`; throws when they would pass `limits.maxInflatedBytes`, when they grow more
    /// than `limits.maxInflateRatio` times the input past `limits.ratioFloor`, or when the input is not DEFLATE.
    package static func inflate(_ deflated: [UInt8], limits: XMLLimits = .inbound) throws(XMLError) -> [UInt8] {
        var stream = z_stream()
        guard CXMLSec_inflateInitRaw(&stream) == Z_OK else { throw XMLError("the DEFLATE decoder could not start") }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        let chunkSize = 16 * 1024
        let chunk = UnsafeMutablePointer<UInt8>.allocate(capacity: chunkSize)
        defer { chunk.deallocate() }
        var input = deflated
        let status: Int32 = input.withUnsafeMutableBufferPointer { inputBuffer in
            stream.next_in = inputBuffer.baseAddress
            stream.avail_in = uInt(inputBuffer.count)
            while true {
                stream.next_out = chunk
                stream.avail_out = uInt(chunkSize)
                let result = CXMLSec.inflate(&stream, Z_NO_FLUSH)
                let produced = chunkSize - Int(stream.avail_out)
                output.append(contentsOf: UnsafeBufferPointer(start: chunk, count: produced))
                if output.count > limits.maxInflatedBytes { return -100 }
                if output.count > limits.ratioFloor, output.count > limits.maxInflateRatio * max(deflated.count, 1) { return -101 }
                if result == Z_STREAM_END { return Z_STREAM_END }
                if result != Z_OK { return result }
                if produced == 0, stream.avail_in == 0 { return Z_BUF_ERROR }
            }
        }
        switch status {
        case Z_STREAM_END: return output
        case -100: throw XMLError("the message inflates to more than \(limits.maxInflatedBytes) bytes")
        case -101: throw XMLError("the message inflates more than \(limits.maxInflateRatio) times its size")
        default: throw XMLError("the message is not DEFLATE-encoded")
        }
    }
}

extension RawDeflate {
    /// `bytes` compressed as raw DEFLATE, as a message mockidp sends over the HTTP-Redirect binding.
    package static func deflate(_ bytes: [UInt8]) throws(XMLError) -> [UInt8] {
        var stream = z_stream()
        guard CXMLSec_deflateInitRaw(&stream) == Z_OK else { throw XMLError("the DEFLATE encoder could not start") }
        defer { deflateEnd(&stream) }
        var input = bytes
        let bound = Int(deflateBound(&stream, uLong(bytes.count)))
        var output = [UInt8](repeating: 0, count: bound)
        let status: Int32 = input.withUnsafeMutableBufferPointer { inputBuffer in
            output.withUnsafeMutableBufferPointer { outputBuffer in
                stream.next_in = inputBuffer.baseAddress
                stream.avail_in = uInt(inputBuffer.count)
                stream.next_out = outputBuffer.baseAddress
                stream.avail_out = uInt(outputBuffer.count)
                return CXMLSec.deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { throw XMLError("the message could not be compressed") }
        output.removeLast(Int(stream.avail_out))
        return output
    }
}
