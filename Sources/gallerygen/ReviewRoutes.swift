import Foundation
import GalleryKit
import Preview

/// The faces review page (`FaceReview`) as `gallerygen serve` answers it.
struct ReviewRoutes: ServedExtras {
    let review: FaceReview

    func answer(_ request: ExtraRequest) async -> ExtraResponse? {
        switch (request.method, request.path) {
        case ("GET", FaceReview.path):
            return ExtraResponse(body: Data(review.page(named: request.query["named"]).utf8))
        case ("GET", FaceReview.facePath):
            guard let reference = request.query["ref"], let jpeg = review.face(reference) else { return nil }
            return ExtraResponse(contentType: "image/jpeg", body: Data(jpeg))
        case ("POST", FaceReview.namePath):
            switch review.name(form: request.form, origin: request.origin, host: request.host) {
            case .success(let name):
                let query = name.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
                return .seeOther("\(FaceReview.path)?named=\(query)")
            case .failure(.forbidden(let reason)):
                return ExtraResponse(status: 403, body: Data(review.page(problem: reason).utf8))
            case .failure(.bad(let reason)):
                return ExtraResponse(status: 400, body: Data(review.page(problem: reason).utf8))
            }
        default:
            return nil
        }
    }
}
