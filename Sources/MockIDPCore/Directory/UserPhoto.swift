/// A user's profile photo, as Graph's `/photo/$value` serves it: the file's bytes, checked at load.
public struct UserPhoto: Sendable, Equatable {
    /// Where the photo came from (a configuration path), for messages and `config print`.
    public var source: String
    /// The file's bytes.
    public var bytes: [UInt8]
    /// `image/jpeg` or `image/png`, from the file's magic bytes.
    public var mediaType: String
    /// The image's width in pixels, read from its header.
    public var width: Int
    /// The image's height in pixels, read from its header.
    public var height: Int

    /// Graph's largest photo is 648×648 in a few hundred kilobytes; a larger file is a wrong path.
    public static let maximumBytes = 4 << 20

    /// A photo of `bytes` (read from `source`), or the reason it cannot be one.
    public static func read(source: String, bytes: [UInt8]) -> Result<UserPhoto, PhotoProblem> {
        guard bytes.count <= maximumBytes else { return .failure(.tooLarge) }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            // PNG: the IHDR chunk follows the signature; width and height are its first two big-endian words.
            guard bytes.count >= 24, Array(bytes[12..<16]) == Array("IHDR".utf8) else { return .failure(.truncated) }
            return .success(UserPhoto(source: source, bytes: bytes, mediaType: "image/png",
                                      width: bigEndian(bytes, 16, 4), height: bigEndian(bytes, 20, 4)))
        }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) {
            guard let size = jpegSize(bytes) else { return .failure(.truncated) }
            return .success(UserPhoto(source: source, bytes: bytes, mediaType: "image/jpeg", width: size.width, height: size.height))
        }
        return .failure(.notAnImage)
    }

    /// Why a file is not a photo, as a clause for a problem.
    public enum PhotoProblem: Error, Equatable, CustomStringConvertible {
        /// Neither PNG's nor JPEG's magic bytes.
        case notAnImage
        /// The header ends before the image's size.
        case truncated
        /// More than `maximumBytes`.
        case tooLarge

        /// The problem as a clause after the file's name.
        public var description: String {
            switch self {
            case .notAnImage: "is neither a JPEG nor a PNG file"
            case .truncated: "is a cut-off image (its header is incomplete)"
            case .tooLarge: "is larger than \(UserPhoto.maximumBytes >> 20) MiB"
            }
        }
    }

    private static func bigEndian(_ bytes: [UInt8], _ offset: Int, _ count: Int) -> Int {
        bytes[offset..<(offset + count)].reduce(0) { $0 << 8 | Int($1) }
    }

    /// The size in a JPEG's first start-of-frame segment (SOF0–SOF15 but DHT, JPG and DAC), walking the segments.
    private static func jpegSize(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        var i = 2
        while i + 4 <= bytes.count {
            guard bytes[i] == 0xFF else { return nil }
            let marker = bytes[i + 1]
            if marker == 0xFF { i += 1; continue }
            if marker == 0xD9 || marker == 0xDA { return nil }
            let length = bigEndian(bytes, i + 2, 2)
            guard length >= 2, i + 2 + length <= bytes.count else { return nil }
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                guard length >= 7 else { return nil }
                return (bigEndian(bytes, i + 7, 2), bigEndian(bytes, i + 5, 2))
            }
            i += 2 + length
        }
        return nil
    }
}
