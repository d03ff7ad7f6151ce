import SocialService
import KindredRuntime

await ServiceMain.run(SocialService.definition)
