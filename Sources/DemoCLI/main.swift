import Convoy

print("democli: coming soon")
