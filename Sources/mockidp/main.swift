print("mockidp")
